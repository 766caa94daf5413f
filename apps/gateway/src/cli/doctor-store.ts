import { accessSync, constants, existsSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { HEARTBEAT_MS, isStale, readHolder } from "../store-lock.ts";
import { check, type DoctorCheck, errorCode, errorMessage } from "./doctor-check.ts";
import { databaseMessage } from "./start-errors.ts";

/** The gateway that answered at `--url`, to tell whether it is the one holding the store. */
export interface GatewaySeen {
  url: string;
  port: number;
  pid: number | undefined;
}

/** How long Redis may take to connect and answer PING. */
const REDIS_TIMEOUT_MS = 2_000;
/** How long the read-only open waits for a gateway's write in progress. */
const SQLITE_BUSY_MS = 2_000;

const require = createRequire(import.meta.url);

/**
 * A dependency of one of the gateway's store packages, loaded from that package (`better-sqlite3` from
 * `@ask-user/sqlite`, `ioredis` from `@ask-user/redis`): the very library the store uses.
 */
function requireFrom(owner: string, name: string): unknown {
  for (const folder of require.resolve.paths(owner) ?? []) {
    const manifest = join(folder, owner, "package.json");
    if (existsSync(manifest)) return createRequire(realpathSync(manifest))(name);
  }
  throw new Error(`${owner} is not installed`);
}

/** The SQLite file's folder: there and writable, or creatable by the first start. */
function folderCheck(dbPath: string): DoctorCheck {
  const folder = dirname(resolve(dbPath));
  let existing = folder;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    if (!statSync(existing).isDirectory())
      throw Object.assign(new Error(`${existing} is a file`), { code: "ENOTDIR" });
    accessSync(existing, constants.W_OK | constants.X_OK);
  } catch (error) {
    return check("store", "store.folder", "fail", databaseMessage(dbPath, error));
  }
  const message =
    existing === folder
      ? `the database folder ${folder} is writable`
      : `the database folder ${folder} does not exist yet; the first start creates it`;
  return check("store", "store.folder", "ok", message);
}

interface ReadOnlyDatabase {
  prepare(sql: string): { pluck(): { get(): unknown } };
  close(): void;
}
type DatabaseConstructor = new (
  path: string,
  options: { readonly: boolean; fileMustExist: boolean; timeout: number },
) => ReadOnlyDatabase;

/**
 * The SQLite file opened read-only (no migration, no lock: a running gateway is not disturbed) and its
 * schema version against this release's.
 */
async function fileCheck(dbPath: string): Promise<DoctorCheck> {
  const file = resolve(dbPath);
  const fail = (message: string) => check("store", "store.file", "fail", message);
  if (!existsSync(file))
    return check("store", "store.file", "ok", `${file} does not exist yet; the first start creates it`);
  try {
    accessSync(file, constants.R_OK | constants.W_OK);
  } catch (error) {
    return fail(
      `${file} is not readable and writable (${errorCode(error) ?? errorMessage(error)}): give the gateway's user access to it, or set ASK_USER_DB to another file.`,
    );
  }
  let Database: DatabaseConstructor;
  let sqlite: typeof import("@ask-user/sqlite");
  try {
    Database = requireFrom("@ask-user/sqlite", "better-sqlite3") as DatabaseConstructor;
    sqlite = await import("@ask-user/sqlite");
  } catch (error) {
    return fail(
      `The SQLite library (better-sqlite3) does not load: ${errorMessage(error)}. Rebuild it for this Node.js (\`pnpm rebuild better-sqlite3\`).`,
    );
  }
  let db: ReadOnlyDatabase | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: SQLITE_BUSY_MS });
    const version = sqlite.schemaVersion(db as never);
    const latest = sqlite.SCHEMA_VERSION;
    if (version > latest)
      return fail(
        `${file} was written by a newer release (schema version ${version}; this one knows up to ${latest}): upgrade ask-user, or set ASK_USER_DB to another file.`,
      );
    const count = version > 0 ? Number(db.prepare("SELECT COUNT(*) FROM questions").pluck().get()) : 0;
    const migrate = version < latest ? `; the next start migrates it to ${latest}` : "";
    return check(
      "store",
      "store.file",
      "ok",
      `${file} opens (schema version ${version}, ${count} question${count === 1 ? "" : "s"})${migrate}`,
    );
  } catch (error) {
    const code = errorCode(error);
    if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT")
      return fail(
        `${file} is not an ask-user database (${code}): set ASK_USER_DB to another file, or move this one away.`,
      );
    return fail(
      `${file} does not open (${code ?? "error"}: ${errorMessage(error)}): check the file and its folder, or set ASK_USER_DB to another file.`,
    );
  } finally {
    db?.close();
  }
}

/** `<db>.lock`: free, left by a gateway that is gone, held by the gateway at `--url`, or by another. */
function lockCheck(dbPath: string, seen: GatewaySeen | undefined): DoctorCheck {
  const path = `${resolve(dbPath)}.lock`;
  const result = (status: "ok" | "warn", message: string) => check("store", "store.lock", status, message);
  let holder: ReturnType<typeof readHolder>;
  try {
    holder = readHolder(path);
  } catch (error) {
    return check(
      "store",
      "store.lock",
      "fail",
      `The lock file ${path} cannot be read (${errorCode(error) ?? errorMessage(error)}).`,
    );
  }
  if (holder === undefined) return result("ok", "no gateway holds the database (no lock file)");
  if (holder === "unreadable")
    return result(
      "warn",
      `The lock file ${path} is not a lock ask-user wrote: if no gateway runs on this database, delete it.`,
    );
  const port = holder.port === undefined ? "" : `, port ${holder.port}`;
  if (isStale(path, holder, 3 * HEARTBEAT_MS))
    return result(
      "ok",
      `the lock was left by a gateway that is gone (pid ${holder.pid}${port}); the next start takes it over`,
    );
  const atUrl =
    seen !== undefined &&
    (seen.pid === undefined || seen.pid === holder.pid) &&
    (holder.port === undefined || holder.port === seen.port);
  if (atUrl) return result("ok", `held by the gateway at ${seen.url} (pid ${holder.pid}${port})`);
  const where =
    holder.port === undefined ? "" : `, or check that one with --url http://127.0.0.1:${holder.port}`;
  return result(
    "warn",
    `Another ask-user gateway (pid ${holder.pid} on ${holder.host}${port}) holds ${resolve(dbPath)}: a start with this configuration is refused; stop it first${where}.`,
  );
}

interface RedisClient {
  connect(): Promise<void>;
  ping(): Promise<string>;
  disconnect(): void;
  on(event: "error", listener: (error: unknown) => void): unknown;
}
type RedisConstructor = new (url: string, options: Record<string, unknown>) => RedisClient;

/** Redis at `url` answers PING within 2 s (connecting included). */
export async function redisCheck(url: string): Promise<DoctorCheck> {
  const host = new URL(url).host; // never the password
  const fail = (why: string, fix = "start it, or fix ASK_USER_REDIS_URL") =>
    check("store", "store.redis", "fail", `Redis at ${host} ${why}: ${fix}.`);
  let client: RedisClient;
  try {
    const { Redis } = requireFrom("@ask-user/redis", "ioredis") as { Redis: RedisConstructor };
    client = new Redis(url, {
      lazyConnect: true,
      connectTimeout: REDIS_TIMEOUT_MS,
      commandTimeout: REDIS_TIMEOUT_MS,
      maxRetriesPerRequest: 0,
      enableReadyCheck: false,
      disableClientInfo: true,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
  } catch (error) {
    return check(
      "store",
      "store.redis",
      "fail",
      `The Redis client (ioredis) does not load: ${errorMessage(error)}.`,
    );
  }
  // ioredis emits the socket's error and rejects `connect` with "Connection is closed.": say the first.
  let emitted: unknown;
  client.on("error", (error) => {
    emitted ??= error;
  });
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((done) => {
    timer = setTimeout(() => done("timeout"), REDIS_TIMEOUT_MS);
  });
  try {
    const answer = await Promise.race([client.connect().then(() => client.ping()), timeout]);
    if (answer === "timeout") return fail(`did not answer PING within ${REDIS_TIMEOUT_MS / 1000} s`);
    return check("store", "store.redis", "ok", `Redis at ${host} answers PING (${Date.now() - started} ms)`);
  } catch (rejected) {
    const error = emitted ?? rejected;
    const code = errorCode(error);
    const said = errorMessage(error);
    if (/NOAUTH|WRONGPASS|invalid password/i.test(said)) {
      const fix =
        "put its password in ASK_USER_REDIS_URL (redis://:PASSWORD@host:port, or redis://USER:PASSWORD@…)";
      return fail(/NOAUTH/.test(said) ? "wants a password" : "refused the password", fix);
    }
    return fail(code ? `cannot be reached (${code})` : `failed: ${errorMessage(error)}`);
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}

/** The store `ask-user start` would use: Redis when `redisUrl` is set, else the SQLite file. */
export async function storeChecks(
  store: { dbPath: string | undefined; redisUrl: string | undefined },
  seen: GatewaySeen | undefined,
): Promise<DoctorCheck[]> {
  if (store.redisUrl !== undefined) return [await redisCheck(store.redisUrl)];
  const { dbPath } = store;
  if (dbPath === undefined) return [];
  if (dbPath === ":memory:")
    return [
      check(
        "store",
        "store.file",
        "warn",
        "ASK_USER_DB=:memory: keeps questions in memory only: they are lost when the gateway stops.",
      ),
    ];
  const folder = folderCheck(dbPath);
  if (folder.status === "fail") return [folder];
  return [folder, await fileCheck(dbPath), lockCheck(dbPath, seen)];
}
