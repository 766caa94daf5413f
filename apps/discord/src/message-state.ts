/**
 * What this process knows about the prompt messages it updates — shared by the inbound handlers (taps
 * update a message in place) and the port (`finalize`, `refresh` edit it over REST) so that their edits
 * of one message land in order and none is repeated: a summary is never overwritten by a form, and a
 * form a tap just showed is not sent again. Bounded; nothing here is needed across a restart.
 */

/** Per-message state, by message id. */
export interface MessageStates {
  /** Taps being answered: each settles `true` once it turned that message into the summary. */
  inPlace: Map<string, Set<Promise<boolean>>>;
  /** Messages a tap turned into the summary (`finalize` has nothing left to do). */
  summaries: Map<string, true>;
  /** Messages whose question ended (`finalize` began): a form refresh must not touch them. */
  ended: Map<string, true>;
  /** The form each message shows as this process last sent it (JSON of content and components). */
  forms: Map<string, string>;
  /** The edit of each message in flight, so the next one waits for it. */
  queues: Map<string, Promise<unknown>>;
}

const REMEMBER_MAX = 1000;

/** Empty state. */
export function createMessageStates(): MessageStates {
  return { inPlace: new Map(), summaries: new Map(), ended: new Map(), forms: new Map(), queues: new Map() };
}

/** Sets `key` in a map bounded to the most recent 1000 entries (oldest dropped first). */
export function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= REMEMBER_MAX) break;
    map.delete(oldest);
  }
}

/** Runs `work` after every earlier edit of the same message has settled. */
export function serial<T>(states: MessageStates, messageId: string, work: () => Promise<T>): Promise<T> {
  const previous = states.queues.get(messageId) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  states.queues.set(messageId, settled);
  void settled.then(() => {
    if (states.queues.get(messageId) === settled) states.queues.delete(messageId);
  });
  return next;
}

/** Waits for the taps being answered on a message; true when one of them showed the summary. */
export async function tapsSettled(states: MessageStates, messageId: string): Promise<boolean> {
  const taps = states.inPlace.get(messageId);
  return taps ? (await Promise.all([...taps])).some(Boolean) : false;
}

/** The form key of a rendered message (see {@link MessageStates.forms}). */
export function formKey(message: { content: string; components: unknown }): string {
  return JSON.stringify([message.content, message.components]);
}
