import { dirname, resolve } from "node:path";
import type { AskUserBroker } from "@ask-user/core";
import type { RedisPushState } from "@ask-user/redis";
import type { Logger } from "pino";
import { loadVapidKeys } from "./keys.ts";
import { createPushSender, type PushSender } from "./sender.ts";
import { openSharedPush } from "./shared.ts";
import { openPushSubscriptions, type PushSubscriptions } from "./subscriptions.ts";

/** The VAPID contact when `ASK_USER_PUSH_SUBJECT` is not set (Apple's push service refuses `localhost`). */
export const DEFAULT_PUSH_SUBJECT = "mailto:ask-user@example.invalid";

/** Options of {@link createPushService}. */
export interface PushServiceOptions {
  broker: AskUserBroker;
  /**
   * The folder that keeps `push-vapid.json` and `push-subscriptions.json` (the SQLite file's folder);
   * undefined: keys and subscriptions in memory only, for this process.
   */
  folder: string | undefined;
  /**
   * Redis shared by several gateway instances (`folder` is then ignored): one key pair for all of them,
   * the subscriptions, and who pushes each new question (one instance per question).
   */
  shared?: RedisPushState | undefined;
  /** The VAPID `sub` claim, a `mailto:` or `https:` contact (default {@link DEFAULT_PUSH_SUBJECT}). */
  subject?: string | undefined;
  logger: Logger;
  now?: () => number;
  /** One push service's answer time limit, in ms. */
  timeoutMs?: number;
}

/** Web Push for the panel: the public key, the subscriptions, and the sender of new questions. */
export interface PushService {
  /** The VAPID public key (base64url): the browser's `applicationServerKey`. */
  publicKey: string;
  subscriptions: PushSubscriptions;
  sender: PushSender;
  close(): Promise<void>;
}

/** True for a VAPID subject push services take: a `mailto:` address or an `https:` URL. */
export function isPushSubject(subject: string): boolean {
  try {
    const url = new URL(subject);
    return (url.protocol === "mailto:" && url.pathname.includes("@")) || url.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * Starts Web Push: the VAPID keys (made on the first start), the subscriptions, and a sender that
 * pushes every new pending question to every subscription — in files beside the SQLite database, in
 * Redis shared by several instances (`shared`), or in memory.
 *
 * @example
 * const push = await createPushService({ broker, folder: ".ask-user", logger });
 * createHttpServer({ …, push });
 */
export async function createPushService(options: PushServiceOptions): Promise<PushService> {
  const { folder, logger } = options;
  const now = options.now ?? Date.now;
  const subject = options.subject || DEFAULT_PUSH_SUBJECT;
  if (!isPushSubject(subject)) {
    throw new Error(
      `The Web Push subject must be a mailto: address or an https: URL (got ${JSON.stringify(subject)}).`,
    );
  }
  const shared = options.shared ? openSharedPush(options.shared, now, logger) : undefined;
  const keys = shared ? await shared.loadKeys() : loadVapidKeys(folder);
  const subscriptions = shared ? shared.subscriptions : openPushSubscriptions(folder, now);
  if (keys.redisKey !== undefined) {
    if (keys.created) logger.info({ key: keys.redisKey }, "web push: made the VAPID keys (in Redis)");
  } else if (keys.path === undefined) {
    logger.info(
      "web push: keys and subscriptions kept in memory (no store folder): browsers subscribe again after a restart",
    );
  } else if (keys.created) {
    logger.info({ file: keys.path }, "web push: made the VAPID keys");
  }
  const sender = createPushSender({
    broker: options.broker,
    keys,
    subject,
    subscriptions,
    logger,
    now,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(shared ? { claim: shared.claim } : {}),
  });
  return { publicKey: keys.publicKey, subscriptions, sender, close: () => sender.close() };
}

/**
 * Where a gateway keeps its push files: the SQLite file's folder. With Redis they live in Redis instead
 * (`shared`); a store of the caller's and `:memory:` keep them in memory.
 */
export function pushFolderOf(
  config: { dbPath: string; redisUrl: string | undefined },
  ownStore: boolean,
): string | undefined {
  if (ownStore || config.redisUrl !== undefined || config.dbPath === "" || config.dbPath === ":memory:")
    return undefined;
  return dirname(resolve(config.dbPath));
}
