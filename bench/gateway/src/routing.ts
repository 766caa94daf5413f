/**
 * Routing a plain-text reply (SPEC §7 rule 2: the one pending question in the conversation) in a
 * conversation with 100,000 ended questions, against the same in a conversation with none, on the
 * SQLite and the Redis store. Each reply answers a question asked just before it (not timed), through
 * `broker.handleReply`: the routing read, the parse, the compare-and-set.
 */
import { join } from "node:path";
import {
  type Channel,
  createAskUser,
  normalizeAskUserInput,
  type QuestionRecord,
  type QuestionStore,
} from "@ask-user/core";
import { createRedisStore } from "@ask-user/redis";
import { createSqliteStore } from "@ask-user/sqlite";
import { startRedisServer } from "@ask-user/testkit/redis";
import { print } from "./report.ts";
import { input } from "./samples.ts";
import { fmt, percentile, row } from "./stats.ts";

const ENDED = 100_000;
const REPLIES = 300;
const quiet = { warn() {}, error() {} };
const prompt = normalizeAskUserInput(input);

/** A chat that takes every prompt and edit at once. */
function chat(): Channel {
  let sent = 0;
  return {
    name: "chat",
    capabilities: { buttons: false, edit: true, privateNotices: false },
    deliver: async () => ({ messageId: String(++sent) }),
    finalize: async () => undefined,
    notify: async () => ({ messageId: String(++sent) }),
  };
}

/** An answered question of conversation `busy`, as the store keeps it. */
function ended(i: number, now: number): QuestionRecord {
  return {
    id: `ended-${i.toString().padStart(7, "0")}`,
    version: 3,
    prompt,
    target: { channel: "chat", conversation: "busy" },
    answerers: { kind: "conversation" },
    locale: "en",
    createdAt: now - ENDED + i,
    expiresAt: now + 900_000,
    status: "answered",
    answers: { deploy_target: ["Production"] },
    resolvedBy: { channel: "chat", userId: "u" },
    resolvedAt: now,
    tokens: [`E${i.toString().padStart(15, "0")}`],
    deliveries: [
      { channel: "chat", conversation: "busy", messageId: `e${i}`, kind: "prompt", finalizedAt: now },
    ],
  };
}

/** Writes `count` records with `concurrency` writes in flight. */
async function fill(store: QuestionStore, count: number, concurrency: number): Promise<void> {
  const now = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await store.create(ended(next++, now));
    }),
  );
}

export interface RoutingFigure {
  store: string;
  /** Medians of one reply's routing, in ms. */
  quietMs: number;
  busyMs: number;
  quietP99Ms: number;
  busyP99Ms: number;
  /** Medians of the store's routing read alone (`list` of the conversation's pending questions), in ms. */
  quietReadMs: number;
  busyReadMs: number;
  fillSeconds: number;
}

/** Times replies in the quiet and the busy conversation, taking turns, on `store`. */
async function measure(name: string, store: QuestionStore): Promise<RoutingFigure> {
  const fillStart = performance.now();
  await fill(store, ENDED, 256);
  const fillSeconds = (performance.now() - fillStart) / 1000;
  const broker = createAskUser({ store, channels: [chat()], logger: quiet, answerers: "conversation" });
  await broker.ready;
  const times: Record<"quiet" | "busy", number[]> = { quiet: [], busy: [] };
  const reads: Record<"quiet" | "busy", number[]> = { quiet: [], busy: [] };
  for (let round = 0; round < REPLIES + 20; round++) {
    for (const conversation of ["quiet", "busy"] as const) {
      await broker.create(input, { target: { channel: "chat", conversation } });
      const readStart = performance.now();
      const listed = await store.list({ status: "pending", channel: "chat", conversation });
      if (round >= 20) reads[conversation].push(performance.now() - readStart);
      if (listed.length !== 1) throw new Error(`${name} ${conversation}: ${listed.length} pending`);
      const start = performance.now();
      const outcome = await broker.handleReply({ channel: "chat", conversation, userId: "u", text: "2" });
      const ms = performance.now() - start;
      if (outcome.kind !== "answered") throw new Error(`${name} ${conversation}: ${outcome.kind}`);
      if (round >= 20) times[conversation].push(ms); // the first rounds warm up
    }
  }
  await broker.idle();
  await broker.close();
  return {
    store: name,
    quietMs: percentile(times.quiet, 50),
    busyMs: percentile(times.busy, 50),
    quietP99Ms: percentile(times.quiet, 99),
    busyP99Ms: percentile(times.busy, 99),
    quietReadMs: percentile(reads.quiet, 50),
    busyReadMs: percentile(reads.busy, 50),
    fillSeconds,
  };
}

/** The figure on a fresh SQLite file and on a fresh redis-server. */
export async function routingFigures(dir: string): Promise<RoutingFigure[]> {
  const sqlite = createSqliteStore({ path: join(dir, "routing.db") });
  const sqliteFigure = await measure("SQLite", sqlite);
  await sqlite.close();

  const server = await startRedisServer();
  const redis = createRedisStore({ url: server.url, logger: quiet });
  try {
    await redis.ready;
    return [sqliteFigure, await measure("Redis", redis)];
  } finally {
    await redis.close();
    await server.stop();
  }
}

/** Prints the routing figures, on SQLite and on Redis. */
export async function routingSection(dir: string): Promise<void> {
  for (const figure of await routingFigures(dir)) {
    print(
      row(
        `route a reply, 100,000 ended in the chat (${figure.store}), p50`,
        figure.busyMs * 1000,
        "µs",
        `   (none ended: ${fmt(figure.quietMs * 1000)} µs; ratio ${(figure.busyMs / figure.quietMs).toFixed(2)}; goal ≤ 2; p99 ${fmt(figure.busyP99Ms, 1)} vs ${fmt(figure.quietP99Ms, 1)} ms; the routing read alone ${fmt(figure.busyReadMs * 1000)} vs ${fmt(figure.quietReadMs * 1000)} µs)`,
      ),
    );
  }
}
