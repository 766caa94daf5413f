import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AskUserError } from "@ask-user/core";
import webpush from "web-push";

/** The file, in the store's folder, that keeps the gateway's VAPID key pair. */
export const VAPID_FILE = "push-vapid.json";

/** The gateway's VAPID key pair (base64url, as browsers and `web-push` take them). */
export interface VapidKeys {
  /** The uncompressed P-256 public key: the panel's `applicationServerKey`. */
  publicKey: string;
  privateKey: string;
}

/** Where the keys came from: made now or read back, in a file or only in memory. */
export interface LoadedVapidKeys extends VapidKeys {
  /** The file they live in; undefined when they are kept in Redis or in memory (a store without a folder). */
  path: string | undefined;
  /** The Redis key they live in, shared by every instance; undefined for a file or memory. */
  redisKey?: string;
  created: boolean;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function decodedLength(text: unknown): number {
  return typeof text === "string" && BASE64URL.test(text) ? Buffer.from(text, "base64url").length : -1;
}

/** The keys in a file's (or Redis value's) text, or why they are not usable. */
export function parseKeys(text: string): VapidKeys | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `it is not JSON (${(error as Error).message})`;
  }
  const keys = value as Partial<VapidKeys> | null;
  if (typeof keys !== "object" || keys === null) return "it is not a JSON object";
  if (decodedLength(keys.publicKey) !== 65) return "publicKey is not a base64url P-256 public key (65 bytes)";
  if (decodedLength(keys.privateKey) !== 32)
    return "privateKey is not a base64url P-256 private key (32 bytes)";
  return { publicKey: keys.publicKey as string, privateKey: keys.privateKey as string };
}

/** Writes `text` to `path` readable by the owner only, all at once (a temporary file, then a rename). */
export function writePrivateFile(path: string, text: string): void {
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600, flag: "wx" });
    chmodSync(temporary, 0o600); // whatever the umask
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/**
 * The gateway's VAPID keys: read from `<folder>/push-vapid.json`, or made (with `web-push`) and written
 * there, mode 0600, on the first start. Browsers tie a push subscription to the key it was made with, so
 * the file is never replaced: one that can't be read stops the start with what to do, rather than
 * silently orphaning every subscription. Without a folder (a memory store) the keys live in memory.
 *
 * @example
 * const keys = loadVapidKeys(".ask-user"); // keys.publicKey → the panel's applicationServerKey
 */
export function loadVapidKeys(folder: string | undefined): LoadedVapidKeys {
  if (folder === undefined) return { ...webpush.generateVAPIDKeys(), path: undefined, created: true };
  const path = join(folder, VAPID_FILE);
  let text: string | undefined;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw unreadable(path, (error as Error).message);
  }
  if (text !== undefined) {
    const keys = parseKeys(text);
    if (typeof keys === "string") throw unreadable(path, keys);
    return { ...keys, path, created: false };
  }
  const keys = webpush.generateVAPIDKeys();
  mkdirSync(folder, { recursive: true });
  writePrivateFile(path, `${JSON.stringify({ ...keys, createdAt: new Date().toISOString() }, null, 2)}\n`);
  return { publicKey: keys.publicKey, privateKey: keys.privateKey, path, created: true };
}

function unreadable(path: string, why: string): AskUserError {
  return new AskUserError(
    "store_failure",
    `The Web Push keys in ${path} can't be used: ${why}. Restore the file, or delete it to make new keys ` +
      "(every browser then has to press Notify me again).",
  );
}
