/**
 * The push sender's broker listener: a new question costs one read of the subscriptions and nothing
 * more when there are none (the usual case), and `close` still waits for every push in flight.
 */
import { type AskUserBroker, createAskUser, createMemoryStore } from "@ask-user/core";
import { type Logger, pino } from "pino";
import { describe, expect, it } from "vitest";
import { createPushSender } from "../src/push/sender.ts";
import {
  openPushSubscriptions,
  type PushSubscriptionRecord,
  type PushSubscriptions,
} from "../src/push/subscriptions.ts";
import { deployInput, listenersOnlyBroker } from "./harness.ts";

const keys = { publicKey: "unused", privateKey: "unused" };
const subscription: PushSubscriptionRecord = {
  endpoint: "http://127.0.0.1:9/push/1",
  keys: { p256dh: "unused", auth: "unused" },
  createdAt: 0,
};

/** Subscriptions whose `list` is counted and answers with `next()`. */
function subscriptionsOf(next: () => Promise<PushSubscriptionRecord[]>) {
  const reads = { count: 0 };
  const subscriptions: PushSubscriptions = {
    path: undefined,
    list: () => {
      reads.count++;
      return next();
    },
    add: async () => ({ renewed: false }),
    remove: async () => false,
  };
  return { reads, subscriptions };
}

/** A sender on `broker` with nothing but its subscriptions (and a claim and a logger when given). */
function senderOf(
  broker: AskUserBroker,
  subscriptions: PushSubscriptions,
  options: { claim?: (id: string) => Promise<boolean>; logger?: Logger } = {},
) {
  return createPushSender({
    broker,
    keys,
    subject: "mailto:ops@example.com",
    subscriptions,
    logger: options.logger ?? pino({ level: "silent" }),
    now: Date.now,
    ...(options.claim ? { claim: options.claim } : {}),
  });
}

/** Lets the promise callbacks queued so far run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function logged() {
  const lines: { msg: string; question?: string }[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { lines, logger };
}

describe("the push sender's listener", () => {
  it("reads the subscriptions once per new question, and with none claims and sends nothing", async () => {
    const broker = createAskUser({ store: createMemoryStore(), channels: [] });
    const { reads, subscriptions } = subscriptionsOf(async () => []);
    const claims: string[] = [];
    const sender = senderOf(broker, subscriptions, {
      claim: async (id) => {
        claims.push(id);
        return true;
      },
    });
    const record = await broker.create(deployInput);
    await broker.answer(record.id, { deploy_target: ["Production"] }, { channel: "http", userId: "ops" });
    await settle();
    expect(reads.count).toBe(1); // the create only, not the answer
    expect(claims).toEqual([]);
    await sender.close();
  });

  it("reads nothing at all when the subscriptions kept here say there are none, and reads once there is one", async () => {
    const broker = createAskUser({ store: createMemoryStore(), channels: [] });
    const { reads, subscriptions } = subscriptionsOf(async () => []);
    let size = 0;
    Object.defineProperty(subscriptions, "size", { get: () => size });
    const sender = senderOf(broker, subscriptions);
    await broker.create(deployInput);
    await settle();
    expect(reads.count).toBe(0);
    size = 1;
    await broker.create(deployInput);
    await settle();
    expect(reads.count).toBe(1);
    await sender.close();
    await broker.close();
  });

  it("the subscriptions kept in this process count themselves as they are added and removed", async () => {
    const kept = openPushSubscriptions(undefined, Date.now);
    expect(kept.size).toBe(0);
    await kept.add({ endpoint: subscription.endpoint, keys: subscription.keys });
    await kept.add({ endpoint: subscription.endpoint, keys: subscription.keys }); // a renewal
    expect(kept.size).toBe(1);
    await kept.remove(subscription.endpoint);
    expect(kept.size).toBe(0);
  });

  it("waits in close for a push in flight, and reads nothing for questions after close", async () => {
    const real = createAskUser({ store: createMemoryStore(), channels: [] });
    const record = await real.create(deployInput);
    const { broker, listeners } = listenersOnlyBroker();
    const { reads, subscriptions } = subscriptionsOf(async () => [subscription]);
    let release: (claimed: boolean) => void = () => undefined;
    // A sibling answers the claim later.
    const sender = senderOf(broker, subscriptions, {
      claim: () => new Promise<boolean>((resolve) => (release = resolve)),
    });
    for (const listener of listeners) listener({ type: "question.requested", record });
    await settle();
    let closed = false;
    const closing = sender.close().then(() => (closed = true));
    await settle();
    expect(closed).toBe(false); // the claim is still out
    release(false); // a sibling sends it: nothing is sent here
    await closing;
    expect(closed).toBe(true);
    expect(listeners.size).toBe(0);
    expect(reads.count).toBe(1);
  });

  it("logs a list that fails (thrown or rejected) and pushes nothing", async () => {
    const broker = createAskUser({ store: createMemoryStore(), channels: [] });
    let mode: "throw" | "reject" = "throw";
    const { reads, subscriptions } = subscriptionsOf(() => {
      if (mode === "throw") throw new Error("disk gone");
      return Promise.reject(new Error("redis gone"));
    });
    const { lines, logger } = logged();
    const sender = senderOf(broker, subscriptions, { logger });
    const first = await broker.create(deployInput);
    mode = "reject";
    const second = await broker.create(deployInput);
    await settle();
    expect(reads.count).toBe(2);
    const failures = lines.filter((line) => line.msg.startsWith("could not read the push subscriptions"));
    expect(failures.map((line) => line.question)).toEqual([first.id, second.id]);
    await sender.close();
  });
});
