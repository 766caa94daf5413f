import type { AskUserLogger } from "@ask-user/core";
import type { PublicQuestion } from "../api.ts";
import type { QuestionBackend } from "../backend.ts";

/** Questions whose call the client gave up on because of its own timeout, kept for a resume. */
export interface Parking {
  /** Keeps `question` pending for the grace under `key`; cancels it when nobody resumes it in time. */
  park(key: string, question: PublicQuestion): void;
  /** The question parked under `key` (it is no longer parked), or `undefined`. */
  resume(key: string): PublicQuestion | undefined;
  /** Cancels every parked question. */
  close(): Promise<void>;
}

export function createParking(backend: QuestionBackend, logger: AskUserLogger, graceMs: number): Parking {
  const parked = new Map<string, { question: PublicQuestion; timer: NodeJS.Timeout }>();

  const cancel = async (question: PublicQuestion) => {
    try {
      await backend.cancel(question.id);
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
    },
    resume(key) {
      const entry = parked.get(key);
      if (!entry) return undefined;
      clearTimeout(entry.timer);
      parked.delete(key);
      return entry.question;
    },
    async close() {
      const all = [...parked.values()];
      parked.clear();
      for (const entry of all) clearTimeout(entry.timer);
      await Promise.all(all.map((entry) => cancel(entry.question)));
    },
  };
}
