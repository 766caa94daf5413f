import { type AskUserBroker, isTerminal, type QuestionRecord } from "@ask-user/core";

/**
 * Waits up to `ms` while question `id` is pending (long-poll), without touching it; resolves with the
 * current record, or `undefined` for an unknown id. Aborting the signal ends the wait early.
 */
export async function waitWhilePending(
  broker: AskUserBroker,
  id: string,
  ms: number,
  signal?: AbortSignal,
): Promise<QuestionRecord | undefined> {
  if (ms <= 0 || signal?.aborted) return broker.get(id);
  // Listen first, then read: a resolution between the two is never missed.
  let ended: () => void = () => undefined;
  const end = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const stop = broker.subscribe((event) => {
    if (event.record.id === id && isTerminal(event.record.status)) ended();
  });
  const timer = setTimeout(ended, ms);
  signal?.addEventListener("abort", ended, { once: true });
  try {
    const first = await broker.get(id);
    if (!first || isTerminal(first.status)) return first;
    await end;
    return await broker.get(id);
  } finally {
    clearTimeout(timer);
    stop();
    signal?.removeEventListener("abort", ended);
  }
}
