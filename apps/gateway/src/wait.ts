import type { AskUserBroker, QuestionRecord } from "@ask-user/core";
import { createEndWaiters, type EndWaiters } from "./mcp/end-waiters.ts";

/** One set of end waiters per broker, shared by every long-poll: one broker listener, however many wait. */
const waitersOf = new WeakMap<AskUserBroker, EndWaiters>();

/**
 * Waits up to `ms` while question `id` is pending (long-poll), without touching it; resolves with the
 * current record, or `undefined` for an unknown id. Aborting the signal ends the wait early. An answer
 * wakes only the waiters of its own question (dispatched by id), not every long-poll in flight.
 */
export async function waitWhilePending(
  broker: AskUserBroker,
  id: string,
  ms: number,
  signal?: AbortSignal,
): Promise<QuestionRecord | undefined> {
  if (ms <= 0 || signal?.aborted) return broker.get(id);
  let waiters = waitersOf.get(broker);
  if (!waiters) {
    waiters = createEndWaiters(broker);
    waitersOf.set(broker, waiters);
  }
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), ms);
  const onAbort = () => stop.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    // An ended question comes back at once; the wait's end (time up, aborted) reads it as it is now.
    return (await waiters.wait(id, stop.signal)) ?? (await broker.get(id));
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
