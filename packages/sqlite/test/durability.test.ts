import { type ChildProcessByStdio, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import Sqlite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteStore } from "../src/index.ts";
import { answersFor } from "./fixtures/records.ts";
import { tempPaths } from "./temp.ts";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const WRITER = fileURLToPath(new URL("./fixtures/writer.ts", import.meta.url));
const ACK_DEADLINE_MS = 20_000;

const tempPath = tempPaths();
let child: ChildProcessByStdio<null, Readable, Readable> | undefined;

afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  child = undefined;
});

/**
 * Runs the writer (with `writers` concurrent loops) on `path` until it has acknowledged `acks` answers,
 * kills it with SIGKILL, and returns
 * every id it acknowledged (including lines still in the pipe when it died).
 */
async function writeAndKill(path: string, acks: number, writers = 1): Promise<string[]> {
  const writer = spawn(process.execPath, ["--import", "tsx", WRITER, path, String(writers)], {
    cwd: PACKAGE_DIR,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = writer;
  let stderr = "";
  writer.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    writer.once("exit", (code, signal) => resolve(signal ?? code)),
  );
  const acked: string[] = [];
  const lines = createInterface({ input: writer.stdout });
  const drained = new Promise<void>((resolve) => lines.once("close", resolve));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`${acked.length} of ${acks} ACKs after ${ACK_DEADLINE_MS} ms; stderr: ${stderr}`)),
      ACK_DEADLINE_MS,
    );
    lines.on("line", (line) => {
      const id = /^ACK (\S+)$/.exec(line)?.[1];
      if (id === undefined) return;
      acked.push(id);
      if (acked.length >= acks) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((how) => {
      clearTimeout(timer);
      reject(
        new Error(`the writer stopped by itself (${how}) after ${acked.length} ACKs; stderr: ${stderr}`),
      );
    });
  });
  writer.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
  await drained;
  return acked;
}

describe("durability under kill -9", () => {
  it.each([
    [50, 1],
    [200, 1],
    [500, 1],
    [2000, 64],
  ])(
    "keeps every acknowledged answer when the writer is killed after %i ACKs (%i at once)",
    async (acks, writers) => {
      const path = tempPath();
      const acked = await writeAndKill(path, acks, writers);
      expect(acked.length).toBeGreaterThanOrEqual(acks);

      const store = createSqliteStore({ path });
      try {
        for (const id of acked) {
          const record = await store.get(id);
          expect(record, id).toMatchObject({ id, version: 2, status: "answered", answers: answersFor(id) });
          expect((await store.findByToken(`tok-${id}`))?.id).toBe(id);
          expect((await store.findByMessage("telegram", "100", `m-${id}`))?.status).toBe("answered");
        }
        // Each loop works on one question at a time, so at most one per loop was written but not
        // acknowledged.
        const all = await store.list();
        const unacknowledged = all.filter((record) => !acked.includes(record.id));
        expect(unacknowledged.length).toBeLessThanOrEqual(writers);
        for (const record of unacknowledged) {
          expect(record.status === "pending" ? record.version : record.answers).toEqual(
            record.status === "pending" ? 1 : answersFor(record.id),
          );
        }
      } finally {
        await store.close();
      }

      const db = new Sqlite(path, { readonly: true });
      try {
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
        expect(db.pragma("foreign_key_check")).toEqual([]);
      } finally {
        db.close();
      }
    },
    60_000,
  );
});
