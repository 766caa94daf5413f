// @ts-check
/**
 * The writer's side of `wire-formats.ts`: takes a group in the format it is told, decodes it to the
 * writes the writer runs, and answers in the same format (as the writer thread does, without the SQL).
 * Reports its own CPU time on "cpu" since the last "start".
 */
import { readFileSync } from "node:fs";
import { parentPort } from "node:worker_threads";
import { decodeGroup, encodeAnswers } from "../src/wire.mjs";

const port = /** @type {import("node:worker_threads").MessagePort} */ (parentPort);
const cpu = () => Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1000;
const stats = { writes: 1, transactions: 1, largestGroup: 1 };

/**
 * The writes of a group, and its answer as a flat array.
 * @param {import("../src/protocol.ts").WireGroup} wire
 */
function answerFlat(wire) {
  const group = decodeGroup(wire);
  const outcomes = group.ops.map(() => /** @type {const} */ ({ ok: true, value: "pending" }));
  return encodeAnswers([group], { ok: true, outcomes, stats });
}

/**
 * Values from a length-prefixed string (`s<length>;<string>`, `n<number>;`, `z;` for null).
 * @param {string} packed
 */
function unpack(packed) {
  /** @type {(string | number | null)[]} */
  const values = [];
  let at = 0;
  while (at < packed.length) {
    const tag = packed[at];
    const semi = packed.indexOf(";", at + 1);
    if (tag === "s") {
      const length = Number(packed.slice(at + 1, semi));
      values.push(packed.slice(semi + 1, semi + 1 + length));
      at = semi + 1 + length;
    } else {
      values.push(tag === "n" ? Number(packed.slice(at + 1, semi)) : null);
      at = semi + 1;
    }
  }
  return values;
}

let start = 0;
port.on("message", (/** @type {any} */ message) => {
  if (message === "start") start = cpu();
  else if (message === "cpu") port.postMessage(cpu() - start);
  else if (Array.isArray(message)) port.postMessage(answerFlat(message));
  else if (typeof message === "string") port.postMessage(JSON.stringify(answerFlat(JSON.parse(message))));
  else if (message.packed !== undefined) port.postMessage(answerFlat(unpack(message.packed)));
  else {
    /** @type {{ id: number, ops: import("../src/protocol.ts").WriteOp[] }} */
    const { id, ops } = message;
    const outcomes = ops.map(() => ({ ok: true, value: "pending" }));
    port.postMessage({ type: "groups", answers: [{ id, ok: true, outcomes }], stats });
  }
});
