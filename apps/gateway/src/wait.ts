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
  const first = await broker.get(id);
  if (!first || isTerminal(first.status) || ms <= 0 || signal?.aborted) return first;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop();
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const stop = broker.subscribe((event) => {
      if (event.record.id === id && isTerminal(event.record.status)) done();
    });
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
  return broker.get(id);
}
