import {
  type AskUserLogger,
  describeError,
  type QuestionRecord,
  type StoreChange,
} from "@ask-user/core/store";
import type { Redis } from "ioredis";
import type { Keys } from "./keys.ts";

/** How long to wait before catching up again after a failed catch-up read. */
const RESYNC_DELAY_MS = 250;

/** Compares two stream ids ("<ms>-<seq>"). */
export function compareStreamIds(a: string, b: string): number {
  const [aMs = 0, aSeq = 0] = a.split("-").map(Number);
  const [bMs = 0, bSeq = 0] = b.split("-").map(Number);
  return aMs - bMs || aSeq - bSeq;
}

/** The change feed of one store: every write of every process, in order, to this process's listeners. */
export interface ChangeFeed {
  /** Resolves once the subscriber connection is subscribed and caught up the first time. */
  readonly synced: Promise<void>;
  readonly isSynced: () => boolean;
  readonly listeners: Set<(change: StoreChange) => void>;
  stop(): void;
}

/**
 * Listens on `subscriber` (a dedicated connection) to the changes the write script publishes, and
 * closes the gaps pub/sub leaves: each time the connection is (re)established it subscribes, then reads
 * the change stream from the last change it delivered (over `command`), delivers what it missed, and
 * only then the messages that arrived meanwhile. Changes are delivered once each, in stream order.
 */
export function startChangeFeed(command: Redis, subscriber: Redis, keys: Keys, logger: AskUserLogger) {
  const listeners = new Set<(change: StoreChange) => void>();
  /** The last change delivered (or seen at start); undefined until the first sync has read it. */
  let lastId: string | undefined;
  /** Live messages held back while a catch-up read is in flight; undefined when live. */
  let held: Array<[string, string]> | undefined = [];
  let generation = 0;
  let synced = false;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let markSynced: () => void = () => undefined;
  const syncedPromise = new Promise<void>((resolve) => {
    markSynced = resolve;
  });

  function deliver(id: string, json: string): void {
    if (lastId !== undefined && compareStreamIds(id, lastId) <= 0) return;
    lastId = id;
    for (const listener of [...listeners]) {
      // Each listener parses its own copy.
      const parsed = JSON.parse(json) as {
        record: QuestionRecord;
        previousStatus?: StoreChange["previousStatus"];
      };
      try {
        listener({ record: parsed.record, previousStatus: parsed.previousStatus });
      } catch (error) {
        logger.error({ questionId: parsed.record.id, err: describeError(error) }, "store subscriber failed");
      }
    }
  }

  subscriber.on("message", (channel: string, message: string) => {
    if (channel !== keys.channel || stopped) return;
    const cut = message.indexOf("\n");
    const id = message.slice(0, cut);
    const json = message.slice(cut + 1);
    if (held) held.push([id, json]);
    else deliver(id, json);
  });

  async function sync(): Promise<void> {
    const mine = ++generation;
    held ??= [];
    if (retry) clearTimeout(retry);
    retry = undefined;
    try {
      // The position is read before subscribing: every later change is either published to this
      // connection or found by the catch-up read below.
      if (lastId === undefined) {
        const [newest] = await command.xrevrange(keys.changes, "+", "-", "COUNT", 1);
        lastId ??= newest?.[0] ?? "0-0";
      }
      await subscriber.subscribe(keys.channel);
      const from = lastId;
      const entries = await command.xrange(keys.changes, from === "0-0" ? "-" : from, "+");
      if (mine !== generation || stopped) return;
      if (from !== "0-0" && entries[0]?.[0] !== from) {
        logger.warn(
          { keyPrefix: keys.prefix, lastChange: from },
          "the change log no longer holds the last change seen (Redis lost data, or more writes than " +
            "changeLogLength happened while disconnected); changes in that gap may not have been delivered",
        );
      }
      for (const [id, fields] of entries) if (fields[1] !== undefined) deliver(id, fields[1]);
      for (const [id, json] of held ?? []) deliver(id, json);
      held = undefined;
      if (!synced) {
        synced = true;
        markSynced();
      }
    } catch (error) {
      if (mine !== generation || stopped) return;
      logger.warn(
        { keyPrefix: keys.prefix, err: describeError(error) },
        "could not catch up on store changes",
      );
      if (subscriber.status === "ready") retry = setTimeout(() => void sync(), RESYNC_DELAY_MS);
    }
  }

  // Fires on the first connection and after every reconnection (autoResubscribe is off: sync subscribes).
  subscriber.on("ready", () => {
    if (!stopped) void sync();
  });

  const feed: ChangeFeed = {
    synced: syncedPromise,
    isSynced: () => synced,
    listeners,
    stop() {
      stopped = true;
      generation++;
      if (retry) clearTimeout(retry);
      listeners.clear();
    },
  };
  return feed;
}
