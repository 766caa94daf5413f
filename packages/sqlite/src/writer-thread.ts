import { Worker } from "node:worker_threads";
import type { GroupRunner } from "./group-commit.ts";
import type {
  ErrorShape,
  FromWriter,
  GroupResult,
  ToWriter,
  WriterOptions,
  WriterStats,
} from "./protocol.ts";

/** The writer as a worker thread (`worker.mjs`), plain JavaScript so that it needs no TypeScript loader. */
const WORKER_URL = new URL("./worker.mjs", import.meta.url);
/** Groups sent ahead while the writer is busy: it joins them into its next transaction. */
const PIPELINE = 64;

/**
 * Starts the writer thread on the (already migrated) file and hands it groups as they form. The
 * thread does not keep the process alive while nothing is waiting for it; it does while a group is in
 * flight or queued, and while it closes.
 */
export function startWriterThread(options: WriterOptions): GroupRunner {
  const worker = new Worker(WORKER_URL, { workerData: options, name: "ask-user-sqlite-writer" });
  worker.unref();
  const waiting = new Map<number, (result: GroupResult) => void>();
  let lastStats: WriterStats = { writes: 0, transactions: 0, largestGroup: 0 };
  let nextId = 0;
  let stopped: ErrorShape | undefined;
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));

  const send = (message: ToWriter) => worker.postMessage(message);
  const stop = (error: ErrorShape) => {
    stopped ??= error;
    for (const [id, answer] of waiting) {
      waiting.delete(id);
      answer({ ok: false, error: stopped, stats: lastStats });
    }
  };

  worker.on("message", (message: FromWriter) => {
    if (message.type === "groups") {
      lastStats = message.stats;
      for (const group of message.answers) {
        const answer = waiting.get(group.id);
        waiting.delete(group.id);
        answer?.(
          group.ok
            ? { ok: true, outcomes: group.outcomes, stats: message.stats }
            : { ok: false, error: group.error, stats: message.stats },
        );
      }
    } else if (message.type === "fatal") {
      stop(message.error);
    }
  });
  worker.on("error", (error) => stop({ name: error.name, message: error.message }));
  worker.on("exit", (code) =>
    stop({ name: "Error", message: `the writer thread stopped (exit code ${code})` }),
  );

  return {
    pipeline: PIPELINE,
    run(ops) {
      if (stopped) return Promise.resolve({ ok: false, error: stopped, stats: lastStats });
      const id = ++nextId;
      return new Promise<GroupResult>((resolve) => {
        waiting.set(id, resolve);
        send({ type: "group", id, ops });
      });
    },
    busy(busy) {
      if (busy) worker.ref();
      else worker.unref();
    },
    async close() {
      if (!stopped) {
        worker.ref();
        send({ type: "close" });
      }
      await exited;
    },
  };
}
