import { Worker } from "node:worker_threads";
import { AskUserError, type QuestionRecord } from "@ask-user/core/store";
import { sampleRecord } from "@ask-user/core/testing";
import Sqlite from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSqliteStore, type SqliteStore } from "../src/index.ts";
import type { GroupResult, WireAnswers, WireGroup, WriteOp, WriterStats } from "../src/protocol.ts";
import { recordRows } from "../src/rows.ts";
import { decodeAnswers, decodeGroup, encodeAnswers, encodeGroup } from "../src/writer.mjs";
import { startWriterThread } from "../src/writer-thread.ts";
import { tempPaths } from "./temp.ts";

const tempPath = tempPaths();
const open: SqliteStore[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const store of open.splice(0)) await store.close();
});
function openStore(options: Parameters<typeof createSqliteStore>[0] = { path: tempPath() }): SqliteStore {
  const store = createSqliteStore(options);
  open.push(store);
  return store;
}

/** What a group looks like on the writer's side: encoded, cloned as `postMessage` does, decoded. */
const acrossThreads = (id: number, ops: WriteOp[]) => decodeGroup(structuredClone(encodeGroup(id, ops)));

/** Every group's answer in `wire`, after a clone as `postMessage` does. */
function answersOf(wire: WireAnswers): { stats: WriterStats; answers: [number, GroupResult][] } {
  const answers: [number, GroupResult][] = [];
  const stats = decodeAnswers(structuredClone(wire), (id, result) => answers.push([id, result]));
  return { stats, answers };
}

const stats: WriterStats = { writes: 7, transactions: 3, largestGroup: 5 };
const rowsOf = (record: QuestionRecord) => recordRows(record, JSON.stringify(record));

describe("a group on the wire", () => {
  it("comes back as it was, for every kind of write", () => {
    const plain = sampleRecord({ tokens: [], deliveries: [] });
    const { target: _target, ...untargeted } = plain;
    const delivered = sampleRecord({
      runId: "run-1",
      target: { channel: "slack", conversation: "C1" },
      tokens: ["a", "b;c", "d:e\u0000f"],
      deliveries: [
        { channel: "telegram", conversation: "100", messageId: "7", kind: "prompt" },
        { channel: "slack", conversation: "C1", messageId: "1.5", kind: "prompt" },
      ],
      answers: { q: ['She said "yes" — ja, ✓ 👍🏽, \\n is not a newline, \u2028 and \n are'] },
    });
    const ops: WriteOp[] = [
      { kind: "create", ...rowsOf(untargeted) },
      { kind: "create", ...rowsOf(delivered) },
      { kind: "compareAndSet", expected: 1, ...rowsOf({ ...delivered, version: 2, status: "answered" }) },
      { kind: "compareAndSet", expected: 41, ...rowsOf({ ...plain, version: 42 }) },
      { kind: "see", key: "telegram:update:1", expires: 2_000, now: 1_000 },
      { kind: "lease", name: "telegram:polling", holder: "gateway-1", expires: 3_000, now: 1_000 },
      { kind: "release", name: "telegram:polling", holder: "gateway-1" },
      { kind: "forget", now: 1_000 },
      { kind: "prune", before: 1_000, limit: 500 },
    ];
    const sent = structuredClone(ops);
    const wire = encodeGroup(12, ops);
    expect(wire.every((value) => value === null || typeof value !== "object")).toBe(true); // flat
    expect(acrossThreads(12, ops)).toEqual({ id: 12, ops: sent });
    // Nulls stay nulls, the record's JSON is the very string, tokens and messages in their order.
    const [first, second] = acrossThreads(1, ops).ops;
    expect(first).toMatchObject({ row: { run_id: null, target_channel: null, target_conversation: null } });
    expect(second?.kind === "create" && JSON.parse(second.row.record)).toEqual(delivered);
    expect(second).toMatchObject({
      tokens: ["a", "b;c", "d:e\u0000f"],
      messages: [
        ["telegram", "100", "7"],
        ["slack", "C1", "1.5"],
      ],
    });
  });

  it("may be empty, and may repeat a kind many times", () => {
    expect(acrossThreads(3, [])).toEqual({ id: 3, ops: [] });
    const many: WriteOp[] = Array.from({ length: 600 }, (_, i) => ({ kind: "forget", now: i }));
    expect(acrossThreads(4, many)).toEqual({ id: 4, ops: many });
  });

  it("is refused, with what is wrong, when it is not one the encoder made", () => {
    const create = encodeGroup(5, [{ kind: "create", ...rowsOf(sampleRecord()) }]);
    const bad: [WireGroup, RegExp][] = [
      [[5, 99], /unknown kind code 99 at 1/],
      [[5, "create"], /unknown kind code create/],
      [create.slice(0, -1), /bad count|ends in the middle/],
      [create.slice(0, 12), /bad count at 12/], // the token count missing
      [[...create.slice(0, 12), -1, 0], /bad count at 12/],
      [[...create.slice(0, 12), 1.5, "t", 0], /bad count at 12/],
      [[...create.slice(0, 12), 3, "t", 0], /bad count at 12/], // more tokens than values left
      [[5, 6, 1_000], /ends in the middle/], // a prune without its limit
      [[...create, 5], /ends in the middle/], // a forget without its time
    ];
    for (const [wire, message] of bad) expect(() => decodeGroup(wire), JSON.stringify(wire)).toThrow(message);
  });
});

describe("answers on the wire", () => {
  const group = (id: number, size: number) => ({ id, ops: Array.from({ length: size }, () => forget) });
  const forget: WriteOp = { kind: "forget", now: 0 };

  it("give each joined group its own outcomes, of every shape, and the writer's counts", () => {
    const result: GroupResult = {
      ok: true,
      outcomes: [
        { ok: true, value: true },
        { ok: true, value: false },
        { ok: true, value: 0 },
        { ok: true, value: 500 },
        { ok: true, value: "pending" },
        { ok: true, value: null },
        {
          ok: false,
          error: {
            name: "SqliteError",
            message: "NOT NULL constraint failed",
            code: "SQLITE_CONSTRAINT_NOTNULL",
          },
        },
        { ok: false, error: { name: "TypeError", message: 'a "quoted" ✓ message' } },
      ],
      stats,
    };
    const { stats: counts, answers } = answersOf(
      encodeAnswers([group(1, 2), group(2, 0), group(3, 6)], result),
    );
    expect(counts).toEqual(stats);
    expect(answers).toEqual([
      [1, { ok: true, outcomes: result.outcomes.slice(0, 2), stats }],
      [2, { ok: true, outcomes: [], stats }],
      [3, { ok: true, outcomes: result.outcomes.slice(2), stats }],
    ]);
    // An error without a code comes back without one (not with an undefined or null one).
    const last = answers[2]?.[1];
    expect(last?.ok && Object.keys(last.outcomes[5] ?? {})).toEqual(["ok", "error"]);
    expect(last?.ok && last.outcomes[5]?.ok === false && Object.keys(last.outcomes[5].error)).toEqual([
      "name",
      "message",
    ]);
  });

  it("fail every joined group with the error that stopped the transaction, code and all", () => {
    const error = { name: "SqliteError", message: "database is locked", code: "SQLITE_BUSY" };
    const { answers } = answersOf(encodeAnswers([group(8, 3), group(9, 1)], { ok: false, error, stats }));
    expect(answers).toEqual([
      [8, { ok: false, error, stats }],
      [9, { ok: false, error, stats }],
    ]);
    const plain = { name: "Error", message: "the writer thread stopped" };
    expect(answersOf(encodeAnswers([group(10, 0)], { ok: false, error: plain, stats })).answers).toEqual([
      [10, { ok: false, error: plain, stats }],
    ]);
  });

  it("fail a write the writer gave no outcome for, rather than lose it", () => {
    const result: GroupResult = { ok: true, outcomes: [{ ok: true, value: true }], stats };
    expect(answersOf(encodeAnswers([group(4, 2)], result)).answers).toEqual([
      [
        4,
        {
          ok: true,
          outcomes: [
            { ok: true, value: true },
            { ok: false, error: { name: "Error", message: "no outcome for a write" } },
          ],
          stats,
        },
      ],
    ]);
  });
});

describe("the writer thread's wire", () => {
  it("answers a group it cannot read with an error for that group alone, and goes on", async () => {
    const path = tempPath();
    await createSqliteStore({ path }).close(); // creates and migrates the file
    const worker = new Worker(new URL("../src/worker.mjs", import.meta.url), {
      workerData: { path, busyTimeoutMs: 1_000 },
    });
    const answers: [number, GroupResult][] = [];
    const closed = new Promise<void>((resolve) =>
      worker.on("message", (message: unknown) => {
        if (Array.isArray(message)) decodeAnswers(message, (id, result) => answers.push([id, result]));
        else if ((message as { type: string }).type === "closed") resolve();
      }),
    );
    const record = sampleRecord();
    worker.postMessage([1, 99]);
    worker.postMessage(encodeGroup(2, [{ kind: "create", ...rowsOf(record) }]));
    worker.postMessage("close");
    await closed;
    await new Promise((resolve) => worker.once("exit", resolve));
    expect(answers).toMatchObject([
      [1, { ok: false, error: { name: "Error", message: expect.stringMatching(/unknown kind code 99/) } }],
      [2, { ok: true, outcomes: [{ ok: true, value: true }], stats: { writes: 1, transactions: 1 } }],
    ]);
    const store = openStore({ path });
    expect(await store.get(record.id)).toEqual(record);
  });

  it("brings a write's SQLite error back with its code, through a store on a file", async () => {
    const store = openStore();
    const broken = { ...sampleRecord(), createdAt: undefined } as unknown as QuestionRecord;
    const thrown = await store.create(broken).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(AskUserError);
    expect((thrown as AskUserError).code).toBe("store_failure");
    const cause = (thrown as Error).cause;
    expect(cause).toBeInstanceOf(Sqlite.SqliteError);
    expect((cause as { code: string }).code).toBe("SQLITE_CONSTRAINT_NOTNULL");
    expect(await store.create(sampleRecord())).toBeUndefined(); // the writer goes on
  });

  it("refs and unrefs the thread only when the store starts or stops waiting for it", async () => {
    const runner = startWriterThread({ path: await migrated(), busyTimeoutMs: 1_000 });
    const ref = vi.spyOn(Worker.prototype, "ref");
    const unref = vi.spyOn(Worker.prototype, "unref");
    for (let i = 0; i < 5; i++) runner.busy(true);
    expect([ref.mock.calls.length, unref.mock.calls.length]).toEqual([1, 0]);
    for (let i = 0; i < 3; i++) runner.busy(false);
    expect([ref.mock.calls.length, unref.mock.calls.length]).toEqual([1, 1]);
    runner.busy(true);
    expect([ref.mock.calls.length, unref.mock.calls.length]).toEqual([2, 1]);
    await runner.close();
  });
});

async function migrated(): Promise<string> {
  const path = tempPath();
  await createSqliteStore({ path }).close();
  return path;
}
