import { randomBytes } from "node:crypto";
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { dirname, resolve } from "node:path";
import { AskUserError } from "@ask-user/core";

/**
 * One gateway per SQLite file: SQLite lets two processes share a file, but two gateways on one file
 * don't see each other's answers until they poll (an answer given on one reached an `ask` waiting on the
 * other only seconds later), and each would deliver and expire the same questions. Several instances
 * share a store through Redis instead.
 */

/** The gateway holding a database: what its lock file (`<db>.lock`) says. */
export interface LockHolder {
  pid: number;
  /** The HTTP port, once it listens. */
  port?: number;
  /** When it took the lock (epoch ms). */
  startedAt: number;
  host: string;
}

/** A held lock: say the port once listening; release on close (and on a failed start). */
export interface StoreLock {
  /** Writes the port into the lock file, for the next gateway's refusal to name. */
  setPort(port: number): void;
  /** Deletes the lock file if it is still this lock's. Idempotent. */
  release(): void;
}

/**
 * Another live gateway holds the database (code `store_locked`): `holder` is what its lock file says.
 * The message is one line that names it and says what to do.
 */
export class StoreLockedError extends AskUserError {
  override name = "StoreLockedError";

  constructor(
    readonly dbPath: string,
    readonly holder: LockHolder,
  ) {
    const where = holder.host === hostname() ? "" : ` on ${holder.host}`;
    const port = holder.port === undefined ? "" : `, port ${holder.port}`;
    super(
      "store_locked",
      `Another ask-user gateway (pid ${holder.pid}${where}${port}) is already using ${dbPath}; ` +
        "stop it first, or use ASK_USER_REDIS_URL to run several instances.",
    );
  }
}

/** Options of {@link lockStoreFile}; the defaults are this process and this machine. */
export interface StoreLockOptions {
  /** How often the holder touches its lock file (a gateway on another machine sees it is alive). */
  heartbeatMs?: number;
  /** A lock file of another machine untouched for this long is stale. Default 3 heartbeats. */
  staleMs?: number;
}

export const HEARTBEAT_MS = 10_000;
/** A lock file that can't be read yet (its holder is between creating and writing it): retried. */
const READ_TRIES = 20;
const READ_PAUSE_MS = 25;
/** Creating the lock races with others doing the same: a few rounds, then the last refusal stands. */
const TAKE_TRIES = 5;

/** Locks this process holds, by lock path: a lock file naming this pid but not in here is stale. */
const held = new Set<string>();

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // alive, someone else's
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (!Number.isSafeInteger(value.pid) || typeof value.host !== "string") return undefined;
    if (typeof value.startedAt !== "number") return undefined;
    const holder: LockHolder = { pid: value.pid as number, startedAt: value.startedAt, host: value.host };
    if (Number.isSafeInteger(value.port)) holder.port = value.port as number;
    return holder;
  } catch {
    return undefined;
  }
}

/** What the lock file says, waiting briefly for a holder that just created it; undefined if gone. */
export function readHolder(path: string): LockHolder | "unreadable" | undefined {
  for (let i = 0; i < READ_TRIES; i++) {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    const holder = parseHolder(text);
    if (holder) return holder;
    pause(READ_PAUSE_MS);
  }
  return "unreadable";
}

/** Whether a lock file's holder is gone: a dead pid here, or no heartbeat from another machine. */
export function isStale(path: string, holder: LockHolder, staleMs: number): boolean {
  if (holder.host !== hostname()) {
    try {
      return Date.now() - statSync(path).mtimeMs > staleMs;
    } catch {
      return true;
    }
  }
  if (holder.pid === process.pid) return !held.has(path); // a container's pid 1 before a restart
  return !isAlive(holder.pid);
}

/** Writes `text` to `path` whole, or not at all (a temporary file renamed over it). */
function replaceFile(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const fd = openSync(temporary, "w");
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/**
 * Takes the lock of the SQLite file at `dbPath`: `<dbPath>.lock`, created exclusively (`wx`), holding
 * `{ pid, port?, startedAt, host }`. A lock whose gateway is gone (its pid dead on this machine, or on
 * another machine no heartbeat for `staleMs`) is taken over; a live one is a {@link StoreLockedError}.
 * `:memory:` (and `""`, SQLite's temporary database) is never locked.
 *
 * @example
 * const lock = lockStoreFile(config.dbPath); // throws StoreLockedError when another gateway runs on it
 * server.listen(port, () => lock.setPort(port));
 * process.on("exit", () => lock.release());
 */
export function lockStoreFile(dbPath: string, options: StoreLockOptions = {}): StoreLock {
  if (dbPath === ":memory:" || dbPath === "") return { setPort() {}, release() {} };
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const staleMs = options.staleMs ?? 3 * heartbeatMs;
  const database = resolve(dbPath);
  const path = `${database}.lock`;
  const own: LockHolder = { pid: process.pid, startedAt: Date.now(), host: hostname() };
  // The lock is taken before SQLite opens (and would create) the database's folder.
  mkdirSync(dirname(database), { recursive: true });

  for (let attempt = 1; ; attempt++) {
    try {
      const fd = openSync(path, "wx");
      try {
        writeSync(fd, JSON.stringify(own));
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new AskUserError(
          "store_failure",
          `Cannot create the lock file ${path}: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      }
    }
    const holder = readHolder(path);
    if (holder !== undefined && holder !== "unreadable" && !isStale(path, holder, staleMs)) {
      throw new StoreLockedError(database, holder);
    }
    if (attempt === TAKE_TRIES) {
      throw new AskUserError("store_failure", `Cannot take the lock file ${path}: others keep taking it.`);
    }
    // Gone, stale or never written whole: remove it and try again (a racing gateway may win; it is then
    // the live holder that the next round names).
    if (holder !== undefined) unlinkQuietly(path);
  }
  held.add(path);

  const mine = () => {
    const holder = readHolder(path);
    return (
      holder !== undefined &&
      holder !== "unreadable" &&
      holder.pid === own.pid &&
      holder.startedAt === own.startedAt
    );
  };
  const heartbeat = setInterval(() => {
    try {
      const now = new Date();
      if (mine()) utimesSync(path, now, now);
    } catch {
      // the next beat tries again; a lock file that is gone is not this process's business any more
    }
  }, heartbeatMs);
  heartbeat.unref();

  let released = false;
  return {
    setPort(port) {
      if (released) return;
      try {
        if (!mine()) return;
        own.port = port;
        replaceFile(path, JSON.stringify(own));
      } catch {
        // the port only makes a refusal more precise: the lock holds without it
      }
    },
    release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      held.delete(path);
      if (mine()) unlinkQuietly(path);
    },
  };
}
