import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AskUserError, type InputIssue } from "@ask-user/core";
import { z } from "zod";
import { isLoopback } from "../config.ts";
import { writePrivateFile } from "./keys.ts";

/** The file, in the store's folder, that keeps the browsers' push subscriptions. */
export const SUBSCRIPTIONS_FILE = "push-subscriptions.json";

/** At most this many subscriptions are kept; a new one beyond it replaces the oldest. */
export const MAX_SUBSCRIPTIONS = 100;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** A base64url string that decodes to `bytes` bytes (and starts with `first`, when given). */
function key(bytes: number, what: string, first?: number) {
  return z
    .string()
    .regex(BASE64URL, `${what} must be base64url.`)
    .refine((text) => {
      const decoded = Buffer.from(text, "base64url");
      return decoded.length === bytes && (first === undefined || decoded[0] === first);
    }, `${what} must decode to ${bytes} bytes.`);
}

/** A push service's address: https, or http on this machine (a local push service, e.g. in tests). */
function isPushEndpoint(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.username !== "" || url.password !== "") return false;
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url.hostname));
}

/** What `PushSubscription.toJSON()` gives in a browser; other fields are ignored. */
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .string()
    .max(2048, "endpoint is at most 2048 characters.")
    .refine(isPushEndpoint, "endpoint must be the push service's https:// URL (http:// only on loopback)."),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: key(65, "keys.p256dh (the browser's P-256 public key)", 0x04),
    auth: key(16, "keys.auth (the browser's auth secret)"),
  }),
});

/** One browser's push subscription, as kept. */
export interface PushSubscriptionRecord {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** When the push service ends it (epoch ms), if it said. */
  expirationTime?: number;
  /** When it was added (epoch ms). */
  createdAt: number;
}

/** What {@link PushSubscriptions.add} did. */
export interface PushSubscriptionAdded {
  /** That endpoint was subscribed already (the same browser subscribing again). */
  renewed: boolean;
  /** The oldest subscription, removed to make room. */
  replaced?: PushSubscriptionRecord;
}

/**
 * The subscriptions `POST /v1/push/subscriptions` adds and the sender sends to: in a file beside the
 * SQLite database, in Redis shared by several instances (`shared.ts`), or in memory.
 */
export interface PushSubscriptions {
  /** Every subscription, oldest first. */
  list(): Promise<PushSubscriptionRecord[]>;
  /** Adds (or renews, same endpoint) a subscription, the oldest giving way beyond {@link MAX_SUBSCRIPTIONS}. */
  add(subscription: Omit<PushSubscriptionRecord, "createdAt">): Promise<PushSubscriptionAdded>;
  /** Removes the subscription of `endpoint` (for every instance, when shared); false when there was none. */
  remove(endpoint: string): Promise<boolean>;
  /** The file they are kept in; undefined when kept in memory or in Redis. */
  readonly path: string | undefined;
  /**
   * How many there are, when known without a read (kept in this process); undefined when they live
   * elsewhere (Redis). With 0 the sender skips a new question without making anything.
   */
  readonly size?: number;
}

/** Problems of a subscription body, each with its path; empty when it is fine. */
export function parsePushSubscription(
  body: unknown,
): { ok: true; value: Omit<PushSubscriptionRecord, "createdAt"> } | { ok: false; issues: InputIssue[] } {
  const parsed = pushSubscriptionSchema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path.join(".") || "(body)",
      message: issue.message,
    }));
    return { ok: false, issues };
  }
  const { endpoint, keys, expirationTime } = parsed.data;
  const value: Omit<PushSubscriptionRecord, "createdAt"> = { endpoint, keys };
  if (typeof expirationTime === "number") value.expirationTime = expirationTime;
  return { ok: true, value };
}

function readFile(path: string): PushSubscriptionRecord[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw unreadable(path, (error as Error).message);
  }
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch (error) {
    throw unreadable(path, `it is not JSON (${(error as Error).message})`);
  }
  const list = (stored as { subscriptions?: unknown } | null)?.subscriptions;
  if (!Array.isArray(list)) throw unreadable(path, 'it has no "subscriptions" list');
  return list.map((entry: unknown, index) => {
    const record = storedSubscription(entry);
    if (typeof record === "string") throw unreadable(path, `subscriptions[${index}]: ${record}`);
    return record;
  });
}

/** A kept subscription read back (from the file or Redis), or what is wrong with it. */
export function storedSubscription(entry: unknown): PushSubscriptionRecord | string {
  const parsed = parsePushSubscription(entry);
  if (!parsed.ok) return parsed.issues[0]?.message ?? "it is not a push subscription";
  const createdAt = (entry as { createdAt?: unknown }).createdAt;
  return { ...parsed.value, createdAt: typeof createdAt === "number" ? createdAt : 0 };
}

function unreadable(path: string, why: string): AskUserError {
  return new AskUserError(
    "store_failure",
    `The push subscriptions in ${path} can't be read: ${why}. Fix the file, or delete it (every browser ` +
      "then has to press Notify me again).",
  );
}

/**
 * The push subscriptions, in `<folder>/push-subscriptions.json` (mode 0600, each change written whole
 * through a temporary file, so a crash leaves the old list or the new one), or in memory without a
 * folder. One per endpoint; at most {@link MAX_SUBSCRIPTIONS}, the oldest giving way.
 *
 * @example
 * const subscriptions = openPushSubscriptions(".ask-user", Date.now);
 */
export function openPushSubscriptions(folder: string | undefined, now: () => number): PushSubscriptions {
  const path = folder === undefined ? undefined : join(folder, SUBSCRIPTIONS_FILE);
  const byEndpoint = new Map<string, PushSubscriptionRecord>();
  for (const record of path ? readFile(path) : []) byEndpoint.set(record.endpoint, record);
  const save = () => {
    if (path)
      writePrivateFile(path, `${JSON.stringify({ subscriptions: [...byEndpoint.values()] }, null, 2)}\n`);
  };
  return {
    path,
    get size() {
      return byEndpoint.size;
    },
    list: async () => [...byEndpoint.values()],
    async add(subscription) {
      const renewed = byEndpoint.delete(subscription.endpoint); // a renewal moves to the end
      let replaced: PushSubscriptionRecord | undefined;
      if (byEndpoint.size >= MAX_SUBSCRIPTIONS) {
        replaced = byEndpoint.values().next().value;
        if (replaced) byEndpoint.delete(replaced.endpoint);
      }
      byEndpoint.set(subscription.endpoint, { ...subscription, createdAt: now() });
      save();
      return replaced ? { renewed, replaced } : { renewed };
    },
    async remove(endpoint) {
      if (!byEndpoint.delete(endpoint)) return false;
      save();
      return true;
    },
  };
}
