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
import { decodeAnswers, encodeGroup } from "./writer.mjs";

/** The writer as a worker thread (`worker.mjs`), plain JavaScript so that it needs no TypeScript loader. */
const WORKER_URL = new URL("./worker.mjs", import.meta.url);
/** Groups sent ahead while the writer is busy: it joins them into its next transaction. */
const PIPELINE = 64;

interface Waiting {
  id: number;
  answer(result: GroupResult): void;
}

/**
 * Starts the writer thread on the (already migrated) file and hands it groups as they form, each as one
 * flat array (`WireGroup` in `protocol.ts`). The thread does not keep the process alive while nothing
 * is waiting for it; it does while a group is in flight or queued, and while it closes.
 */
export function startWriterThread(options: WriterOptions): GroupRunner {
  const worker = new Worker(WORKER_URL, { workerData: options, name: "ask-user-sqlite-writer" });
  worker.unref();
  let referenced = false;
  // The groups sent and not yet answered, oldest first: the writer answers them in the order sent.
  const waiting: Waiting[] = [];
  let lastStats: WriterStats = { writes: 0, transactions: 0, largestGroup: 0 };
  let nextId = 0;
  let stopped: ErrorShape | undefined;
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));

  const send = (message: ToWriter) => worker.postMessage(message);
  const stop = (error: ErrorShape) => {
    stopped ??= error;
    for (const { answer } of waiting.splice(0)) answer({ ok: false, error: stopped, stats: lastStats });
  };
  const answered = (id: number, result: GroupResult) => {
    // The oldest, always, unless a group was lost on the way (never seen): then the one with the id.
    if (waiting[0]?.id === id) return waiting.shift()?.answer(result);
    const at = waiting.findIndex((group) => group.id === id);
    if (at >= 0) waiting.splice(at, 1)[0]?.answer(result);
  };

  worker.on("message", (message: FromWriter) => {
    if (Array.isArray(message)) lastStats = decodeAnswers(message, answered);
    else if (message.type === "fatal") stop(message.error);
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
      return new Promise<GroupResult>((answer) => {
        waiting.push({ id, answer });
        send(encodeGroup(id, ops));
      });
    },
    busy(busy) {
      // Only on a change: ref() and unref() are calls into the native side.
      if (busy === referenced) return;
      referenced = busy;
      if (busy) worker.ref();
      else worker.unref();
    },
    async close() {
      if (!stopped) {
        referenced = true;
        worker.ref();
        send("close");
      }
      await exited;
    },
  };
}
