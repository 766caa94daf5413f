/**
 * One gateway per SQLite file: `<db>.lock` names the gateway that holds it; a second one is refused with
 * one line naming the first (pid, port), a lock left by a gateway that died is taken over.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AskUserError } from "@ask-user/core";
import { afterEach, describe, expect, it } from "vitest";
import { type LockHolder, lockStoreFile, type StoreLock, StoreLockedError } from "../src/store-lock.ts";
import { tempDir } from "./harness.ts";

const module = fileURLToPath(new URL("../src/store-lock.ts", import.meta.url));
const children: ChildProcess[] = [];
const locks: StoreLock[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const lock of locks.splice(0)) lock.release();
});

function lock(dbPath: string, options?: Parameters<typeof lockStoreFile>[1]): StoreLock {
  const taken = lockStoreFile(dbPath, options);
  locks.push(taken);
  return taken;
}

/** Another process that takes the lock of `dbPath`, says its port, and holds it until killed. */
async function holdInAnotherProcess(dbPath: string, port: number): Promise<ChildProcess> {
  const code =
    `const { lockStoreFile } = await import(${JSON.stringify(module)});` +
    `lockStoreFile(${JSON.stringify(dbPath)}).setPort(${port});` +
    `process.stdout.write("held\\n"); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", code], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no lock after 20 s: ${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      if (output.includes("held")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (exitCode) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${exitCode}: ${output}`));
    });
  });
  return child;
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  const pid = child.pid ?? 0;
  await new Promise((resolve) => child.once("exit", resolve));
  return pid;
}

function holderOf(dbPath: string): LockHolder {
  return JSON.parse(readFileSync(`${dbPath}.lock`, "utf8")) as LockHolder;
}

function refusal(dbPath: string): StoreLockedError {
  try {
    lock(dbPath);
  } catch (error) {
    if (error instanceof StoreLockedError) return error;
    throw error;
  }
  throw new Error("the lock was taken");
}

describe("the SQLite file's lock", () => {
  it("refuses a second gateway while another process holds it, naming that process's pid and port", async () => {
    const db = join(tempDir(), "ask-user.db");
    const child = await holdInAnotherProcess(db, 7310);
    const error = refusal(db);
    expect(error).toBeInstanceOf(AskUserError);
    expect(error.code).toBe("store_locked");
    expect(error.holder).toMatchObject({ pid: child.pid, port: 7310, host: hostname() });
    expect(error.message).toBe(
      `Another ask-user gateway (pid ${child.pid}, port 7310) is already using ${db}; ` +
        "stop it first, or use ASK_USER_REDIS_URL to run several instances.",
    );
    expect(error.message).not.toContain("\n");
    // Refused, the lock is left as it was.
    expect(holderOf(db)).toMatchObject({ pid: child.pid, port: 7310 });
  });

  it("takes over a lock left by a gateway that died, and releases it on close", async () => {
    const db = join(tempDir(), "ask-user.db");
    const pid = await deadPid();
    writeFileSync(
      `${db}.lock`,
      JSON.stringify({ pid, port: 7310, startedAt: Date.now() - 60_000, host: hostname() }),
    );
    const taken = lock(db);
    expect(holderOf(db)).toMatchObject({ pid: process.pid, host: hostname() });
    expect(holderOf(db).port).toBeUndefined();
    taken.setPort(7311);
    expect(holderOf(db)).toMatchObject({ pid: process.pid, port: 7311 });
    taken.release();
    expect(existsSync(`${db}.lock`)).toBe(false);
    taken.release(); // idempotent
    lock(db).release(); // and free for the next gateway
  });

  it("makes the database's folder when it does not exist yet (a fresh clone's first start)", () => {
    const db = join(tempDir(), "new", "folder", "ask-user.db");
    lock(db);
    expect(existsSync(`${db}.lock`)).toBe(true);
  });

  it("is held within one process too: a second gateway in it is refused until the first releases", () => {
    const db = join(tempDir(), "ask-user.db");
    const first = lock(db);
    first.setPort(7312);
    expect(refusal(db).message).toContain(`(pid ${process.pid}, port 7312)`);
    first.release();
    expect(() => lock(db)).not.toThrow();
  });

  it("takes over a lock naming this very pid that this process does not hold (a container's pid after a restart)", () => {
    const db = join(tempDir(), "ask-user.db");
    writeFileSync(`${db}.lock`, JSON.stringify({ pid: process.pid, startedAt: 1, host: hostname() }));
    lock(db);
    expect(holderOf(db).startedAt).toBeGreaterThan(1);
  });

  it("release leaves a lock that is no longer its own (taken over by another gateway)", () => {
    const db = join(tempDir(), "ask-user.db");
    const taken = lock(db);
    const other = { pid: process.pid + 1, startedAt: Date.now(), host: hostname() };
    writeFileSync(`${db}.lock`, JSON.stringify(other));
    taken.release();
    expect(holderOf(db)).toEqual(other);
  });

  it("refuses for a lock of another machine with a recent heartbeat, and takes it over once it has none", () => {
    const db = join(tempDir(), "ask-user.db");
    writeFileSync(`${db}.lock`, JSON.stringify({ pid: 7, port: 7310, startedAt: 1, host: "other-box" }));
    expect(refusal(db).message).toBe(
      `Another ask-user gateway (pid 7 on other-box, port 7310) is already using ${db}; ` +
        "stop it first, or use ASK_USER_REDIS_URL to run several instances.",
    );
    const old = new Date(Date.now() - 31_000);
    utimesSync(`${db}.lock`, old, old);
    lock(db);
    expect(holderOf(db).host).toBe(hostname());
  });

  it("keeps its lock file touched (the heartbeat another machine reads)", async () => {
    const db = join(tempDir(), "ask-user.db");
    lock(db, { heartbeatMs: 20 });
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${db}.lock`, old, old);
    const deadline = Date.now() + 5_000;
    while (statSync(`${db}.lock`).mtimeMs < Date.now() - 30_000 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(statSync(`${db}.lock`).mtimeMs).toBeGreaterThan(Date.now() - 30_000);
  });

  it("takes over a lock file that never got its content (a holder that died between creating and writing it)", () => {
    const db = join(tempDir(), "ask-user.db");
    writeFileSync(`${db}.lock`, "");
    lock(db);
    expect(holderOf(db).pid).toBe(process.pid);
  });

  it("never locks :memory:", () => {
    const first = lock(":memory:");
    expect(() => lock(":memory:")).not.toThrow();
    first.setPort(1);
    expect(existsSync(":memory:.lock")).toBe(false);
  });
});
