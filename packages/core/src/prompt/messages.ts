/**
 * The one place a channel keeps what it knows about the prompt messages it edits (form state): which
 * question each message shows, what it last sent there, the newest record seen, taps being handled, and
 * whether the question ended — so that edits of one message land one at a time and in order, an edit that
 * would show the same is not sent, a form never follows its summary, and a refresh shows what a tap just
 * chose. Bounded (most recent messages); nothing here is needed across a restart: a restarted process
 * shows a form's first open question again. Pure (no platform, no I/O of its own).
 */
import type { QuestionRecord } from "../model/types.ts";

/** One edit a channel would make: what it shows (compared with the last one sent) and how to send it. */
export interface PromptEdit {
  /** A key of what the message would show (e.g. JSON of text and controls): equal keys, no edit. */
  sameness: string;
  send(): Promise<void>;
}

/** See the module comment. Keys are the channel's own message keys (`"<chat>:<message>"`). */
export interface PromptMessages {
  /** A prompt was just sent to `key` showing `record` as `sameness`. */
  sent(key: string, record: QuestionRecord, sameness: string): void;
  /** The question a stepping form shows in `key`, once a tap chose one (Back / Next, a pick). */
  view(key: string, index?: number): number | undefined;
  /**
   * A tap on the message is being handled until the returned function is called (with `true` when the
   * tap turned the message into the summary). `show` and `finalize` wait for it.
   */
  tapping(key: string): (summary?: boolean) => void;
  /** Waits for the taps in flight; true when one of them (or an earlier one) showed the summary. */
  tapsSettled(key: string): Promise<boolean>;
  /**
   * Shows `record` (or a newer one seen for `key`) after the edits and taps in flight, unless the
   * question ended, the record is not pending, or the message shows the same already. `edit` renders
   * the record (with the question `view` says) into the platform's edit.
   */
  show(key: string, record: QuestionRecord, edit: (record: QuestionRecord) => PromptEdit): Promise<void>;
  /** The question ended: no form edit from now on; `work` (the summary edit) runs after those in flight. */
  end<T>(key: string, work: () => Promise<T>): Promise<T>;
  /** True once `end` was called for `key`. */
  ended(key: string): boolean;
  /** Runs `work` after every earlier edit of the same message has settled. */
  serial<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/** How many messages are remembered (the oldest are forgotten first). */
export const PROMPT_MESSAGES_REMEMBERED = 1000;

/** Sets `key` in a map bounded to the most recent `max` entries (oldest dropped first). */
export function rememberBounded<V>(
  map: Map<string, V>,
  key: string,
  value: V,
  max = PROMPT_MESSAGES_REMEMBERED,
): void {
  map.delete(key);
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= max) break;
    map.delete(oldest);
  }
}

/**
 * Creates the message state of one channel (see {@link PromptMessages}).
 *
 * @example
 * const messages = createPromptMessages();
 * await messages.show(key, record, (latest) => {
 *   const rendered = render(latest, messages.view(key) ?? firstOpenQuestion(latest));
 *   return { sameness: JSON.stringify(rendered), send: () => api.edit(key, rendered) };
 * });
 */
export function createPromptMessages(max = PROMPT_MESSAGES_REMEMBERED): PromptMessages {
  const views = new Map<string, number>();
  const shown = new Map<string, string>();
  const records = new Map<string, QuestionRecord>();
  const ended = new Map<string, true>();
  const summaries = new Map<string, true>();
  const queues = new Map<string, Promise<unknown>>();
  const taps = new Map<string, Set<Promise<boolean>>>();

  function serial<T>(key: string, work: () => Promise<T>): Promise<T> {
    const next = (queues.get(key) ?? Promise.resolve()).then(work, work);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    queues.set(key, settled);
    void settled.then(() => {
      if (queues.get(key) === settled) queues.delete(key);
    });
    return next;
  }

  /** The newer of two records of one question (by version). */
  function newest(key: string, record: QuestionRecord): QuestionRecord {
    const known = records.get(key);
    const latest = known && known.id === record.id && known.version > record.version ? known : record;
    rememberBounded(records, key, latest, max);
    return latest;
  }

  async function tapsSettled(key: string): Promise<boolean> {
    const inFlight = taps.get(key);
    const results = inFlight ? await Promise.all([...inFlight]) : [];
    return results.some(Boolean) || summaries.has(key);
  }

  return {
    sent(key, record, sameness) {
      rememberBounded(records, key, record, max);
      rememberBounded(shown, key, sameness, max);
    },
    view(key, index) {
      if (index !== undefined) rememberBounded(views, key, index, max);
      return views.get(key);
    },
    tapping(key) {
      let done: (summary: boolean) => void = () => undefined;
      const tap = new Promise<boolean>((resolve) => {
        done = resolve;
      });
      const set = taps.get(key) ?? new Set();
      set.add(tap);
      taps.set(key, set);
      return (summary = false) => {
        if (summary) rememberBounded(summaries, key, true, max);
        done(summary);
        set.delete(tap);
        if (set.size === 0 && taps.get(key) === set) taps.delete(key);
      };
    },
    tapsSettled,
    async show(key, record, edit) {
      await tapsSettled(key);
      await serial(key, async () => {
        if (ended.has(key) || summaries.has(key)) return;
        const latest = newest(key, record);
        if (latest.status !== "pending") return;
        const next = edit(latest);
        if (shown.get(key) === next.sameness) return;
        await next.send();
        rememberBounded(shown, key, next.sameness, max);
      });
    },
    end(key, work) {
      rememberBounded(ended, key, true, max);
      return serial(key, work);
    },
    ended: (key) => ended.has(key),
    serial,
  };
}
