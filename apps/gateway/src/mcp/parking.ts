import type { AskUserLogger } from "@ask-user/core";
import type { QuestionBackend } from "../backend.ts";
import type { WaitingQuestion } from "./progress.ts";

/** Questions whose call the client gave up on because of its own timeout, kept for a resume. */
export interface Parking {
  /** Keeps `question` pending for the grace under `key`; cancels it when nobody resumes it in time. */
  park(key: string, question: WaitingQuestion): void;
  /**
   * The question parked under `key` (it is no longer parked), or `undefined`. While a call with this key
   * is still waiting, waits up to `waitMs` for it to be parked: a client that retries at once may send
   * the new call before its cancellation of the old one arrives (two HTTP requests race).
   */
  resume(key: string, waitMs: number): Promise<WaitingQuestion | undefined>;
  /** Marks a call with `key` as waiting until the returned function is called. */
  waiting(key: string): () => void;
  /** Cancels every parked question. */
  close(): Promise<void>;
}

export function createParking(backend: QuestionBackend, logger: AskUserLogger, graceMs: number): Parking {
  const parked = new Map<string, { question: WaitingQuestion; timer: NodeJS.Timeout }>();
  /** Calls waiting now, by key: how many, and who waits for one of them to be parked. */
  const active = new Map<string, { count: number; onPark: Set<() => void> | undefined }>();

  const cancel = async (question: WaitingQuestion) => {
    try {
      await backend.cancel(question.id, { ifPending: true });
    } catch (error) {
      logger.warn({ err: error, questionId: question.id }, "a parked question could not be cancelled");
    }
  };

  return {
    park(key, question) {
      const before = parked.get(key);
      if (before) {
        // Two identical calls timed out: the older question is the one nobody can resume any more.
        clearTimeout(before.timer);
        void cancel(before.question);
      }
      const timer = setTimeout(() => {
        if (parked.get(key)?.question !== question) return;
        parked.delete(key);
        logger.warn(
          { questionId: question.id, graceMs },
          "MCP call timed out at the client and was not repeated in time: question cancelled",
        );
        void cancel(question);
      }, graceMs);
      timer.unref();
      parked.set(key, { question, timer });
      for (const wake of [...(active.get(key)?.onPark ?? [])]) wake();
    },
    async resume(key, waitMs) {
      const calls = active.get(key);
      if (!parked.has(key) && calls && calls.count > 0 && waitMs > 0) {
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            calls.onPark?.delete(done);
            if (calls.onPark?.size === 0) calls.onPark = undefined;
            if (calls.count === 0 && !calls.onPark && active.get(key) === calls) active.delete(key);
            resolve();
          };
          const timer = setTimeout(done, waitMs);
          calls.onPark ??= new Set();
          calls.onPark.add(done);
        });
      }
      const entry = parked.get(key);
      if (!entry) return undefined;
      clearTimeout(entry.timer);
      parked.delete(key);
      return entry.question;
    },
    waiting(key) {
      let calls = active.get(key);
      if (!calls) {
        calls = { count: 0, onPark: undefined };
        active.set(key, calls);
      }
      const entry = calls;
      entry.count++;
      return () => {
        entry.count--;
        if (entry.count === 0 && !entry.onPark && active.get(key) === entry) active.delete(key);
      };
    },
    async close() {
      const all = [...parked.values()];
      parked.clear();
      for (const entry of all) clearTimeout(entry.timer);
      await Promise.all(all.map((entry) => cancel(entry.question)));
    },
  };
}
