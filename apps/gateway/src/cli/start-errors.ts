import { accessSync, constants, existsSync, mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, resolve } from "node:path";

/** How long `/healthz` of whatever holds the port may take to answer. */
const HEALTH_TIMEOUT_MS = 1_000;
/** How many ports after a taken one are tried for a free one to suggest. */
const PORTS_TRIED = 10;

/** Who holds a port the gateway wanted: another ask-user gateway (its pid when it says it) or something else. */
export type PortHolder = { kind: "ask-user"; pid?: number } | { kind: "other" };

/**
 * `Port 7310 is in use — another ask-user gateway (pid 1234) is running there: stop it, or set
 * ASK_USER_PORT=7311.` — the port, who is there and the fix (`free` is a port found free, if any).
 */
export function portInUseMessage(port: number, holder: PortHolder, free?: number): string {
  const who =
    holder.kind === "ask-user"
      ? `another ask-user gateway${holder.pid === undefined ? "" : ` (pid ${holder.pid})`} is running there`
      : "another program is listening there";
  const setPort = free === undefined ? "set ASK_USER_PORT to a free port" : `set ASK_USER_PORT=${free}`;
  return `Port ${port} is in use — ${who}: stop it, or ${setPort}.`;
}

/** Asks `GET /healthz` on the port: an ask-user gateway answers `{"ok":…,"draining":…}`. */
export async function findPortHolder(host: string, port: number): Promise<PortHolder> {
  const loopback = host === "0.0.0.0" || host === "::" || host === "" ? "127.0.0.1" : host;
  const hostPart = loopback.includes(":") ? `[${loopback}]` : loopback;
  try {
    const response = await fetch(`http://${hostPart}:${port}/healthz`, {
      signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
    });
    const body = (await response.json()) as Record<string, unknown>;
    if (typeof body.ok === "boolean" && typeof body.draining === "boolean") {
      return typeof body.pid === "number" ? { kind: "ask-user", pid: body.pid } : { kind: "ask-user" };
    }
  } catch {
    // Not HTTP, not JSON or no answer in time: not a gateway.
  }
  return { kind: "other" };
}

/** The first of the next ports after `port` that can be listened on at `host`, if any. */
export async function findFreePort(host: string, port: number): Promise<number | undefined> {
  for (let candidate = port + 1; candidate <= Math.min(65_535, port + PORTS_TRIED); candidate++) {
    const free = await new Promise<boolean>((done) => {
      const server = createServer();
      server.once("error", () => done(false));
      server.listen(candidate, host, () => server.close(() => done(true)));
    });
    if (free) return candidate;
  }
  return undefined;
}

/** The SQLite file `ask-user start` will use, or undefined with Redis (the same defaults as config.ts). */
export function sqlitePath(env: Record<string, string | undefined>): string | undefined {
  if (env.ASK_USER_REDIS_URL?.trim()) return undefined;
  return env.ASK_USER_DB?.trim() || ".ask-user/ask-user.db";
}

/**
 * Creates the database's folder (and missing parents, one level at a time) and checks that it is
 * writable, before the gateway takes the file's lock there. Returns the problem as a message with the
 * fix, or undefined when the folder is ready.
 */
export function prepareDatabaseFolder(dbPath: string): string | undefined {
  if (dbPath === ":memory:") return undefined;
  const folder = dirname(resolve(dbPath));
  const missing: string[] = [];
  for (let at = folder; !existsSync(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  try {
    for (const dir of missing) mkdirSync(dir);
    accessSync(folder, constants.W_OK);
    return undefined;
  } catch (error) {
    return databaseMessage(dbPath, error);
  }
}

/**
 * A database file that cannot be opened, with why and the fix: `Cannot open the database
 * /srv/db/ask-user.db: its folder /srv/db is not writable (EACCES). Make it writable, or set ASK_USER_DB to
 * a file in a writable folder.` SQLite's own "unable to open database file" says neither.
 */
export function databaseMessage(dbPath: string, error: unknown): string {
  const folder = dirname(resolve(dbPath));
  const code = (error as { code?: unknown }).code;
  const why =
    code === "EACCES" || code === "EPERM" || code === "EROFS"
      ? `its folder ${folder} is not writable (${code})`
      : code === "ENOTDIR" || code === "EEXIST"
        ? `${folder} is not a folder (${code})`
        : `${error instanceof Error ? error.message : String(error)} (folder ${folder})`;
  return `Cannot open the database ${resolve(dbPath)}: ${why}. Make the folder writable, or set ASK_USER_DB to a file in a writable folder.`;
}

/** True for SQLite's "unable to open database file" and the file-system errors behind it. */
export function isDatabaseOpenError(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    code === "SQLITE_CANTOPEN" ||
    code === "SQLITE_READONLY" ||
    (typeof message === "string" && /unable to open database file|readonly database/i.test(message))
  );
}
