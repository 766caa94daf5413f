// @ts-check
/**
 * The writer thread of a SQLite store: owns the write connection and carries out each group of writes
 * the main thread sends in one durable transaction, so waiting for the write lock (`busy_timeout`) and
 * the fsync of each commit never block the main thread's event loop. Started by `store.ts` with
 * `workerData: { path, busyTimeoutMs }` after the main thread has migrated the file.
 */
/** @import { FromWriter, ToWriter, WriterOptions } from "./protocol.ts" */
import { parentPort, workerData } from "node:worker_threads";
import Sqlite from "better-sqlite3";
import { configureWriter, createWriter, errorShape } from "./writer.mjs";

const port = parentPort;
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

port.on("message", (/** @type {ToWriter} */ message) => {
  if (message.type === "group") {
    send({ type: "group", id: message.id, ...writer.run(message.ops) });
    return;
  }
  // The main thread sends "close" only once every group it sent has been answered.
  try {
    connection.close();
  } finally {
    send({ type: "closed" });
    port.close();
  }
});
