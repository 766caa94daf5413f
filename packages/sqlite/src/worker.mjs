// @ts-check
/**
 * The writer thread of a SQLite store: owns the write connection and carries out each group of writes
 * the main thread sends in one durable transaction, so waiting for the write lock (`busy_timeout`) and
 * the fsync of each commit never block the main thread's event loop. Started by `store.ts` with
 * `workerData: { path, busyTimeoutMs }` after the main thread has migrated the file.
 */
/** @import { FromWriter, ToWriter, WriterOptions } from "./protocol.ts" */
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import Sqlite from "better-sqlite3";
import { decodeGroup, encodeAnswers } from "./wire.mjs";
import { configureWriter, createWriter, errorShape } from "./writer.mjs";

const port = /** @type {import("node:worker_threads").MessagePort} */ (parentPort);
if (!port) throw new Error("worker.mjs runs in a worker thread");
const { path, busyTimeoutMs } = /** @type {WriterOptions} */ (workerData);

/** @param {FromWriter} message */
const send = (message) => port.postMessage(message);

/** @type {Sqlite.Database | undefined} */
let db;
try {
  db = new Sqlite(path);
  configureWriter(db, busyTimeoutMs);
} catch (error) {
  db?.close();
  send({ type: "fatal", error: errorShape(error) });
  process.exit(1);
}
const connection = db;
const writer = createWriter(connection);
send({ type: "ready" });

/** At most this many writes are joined into one transaction (a group alone may be larger). */
const MAX_JOINED = 1024;

/** @typedef {{ id: number, ops: import("./protocol.ts").WriteOp[] }} Group */

/**
 * Carries out `groups` as one transaction and answers them all in one message, each with its own
 * outcomes (one message per transaction, not per group: the main thread handles one event).
 * @param {Group[]} groups
 */
function commitJoined(groups) {
  const ops =
    groups.length === 1 ? /** @type {Group} */ (groups[0]).ops : groups.flatMap((group) => group.ops);
  const result = writer.run(ops);
  stats = result.stats;
  send(encodeAnswers(groups, result));
}

/** The writer's counts as of its last transaction. */
let stats = { writes: 0, transactions: 0, largestGroup: 0 };

function close() {
  try {
    connection.close();
  } finally {
    send({ type: "closed" });
    port.close();
  }
}

// Groups that arrived while the last transaction was committing are taken off the port at once and
// committed together: one fsync for all of them, however late the main thread reads the answers.
port.on("message", (/** @type {ToWriter} */ first) => {
  /** @type {ToWriter | undefined} */
  let message = first;
  /** @type {Group[]} */
  let joined = [];
  let size = 0;
  while (message !== undefined) {
    // The main thread sends "close" only once every group it sent has been answered.
    if (message === "close") {
      if (joined.length > 0) commitJoined(joined);
      close();
      return;
    }
    /** @type {Group} */
    let group;
    try {
      group = decodeGroup(message);
    } catch (error) {
      // Never seen (both sides are this release's code): this group fails alone, in its turn.
      if (joined.length > 0) commitJoined(joined);
      joined = [];
      size = 0;
      send(
        encodeAnswers([{ id: Number(message[0]), ops: [] }], { ok: false, error: errorShape(error), stats }),
      );
      message = receiveMessageOnPort(port)?.message;
      continue;
    }
    if (joined.length > 0 && size + group.ops.length > MAX_JOINED) {
      commitJoined(joined);
      joined = [];
      size = 0;
    }
    joined.push(group);
    size += group.ops.length;
    message = receiveMessageOnPort(port)?.message;
  }
  if (joined.length > 0) commitJoined(joined);
});
