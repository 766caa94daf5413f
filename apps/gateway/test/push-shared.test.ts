/**
 * The shared Web Push state's list of subscriptions: every instance hears every new question, so each
 * reads the list from Redis at most every 2 s, and sees its own changes at once.
 */
import type { RedisPushState } from "@ask-user/redis";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { openSharedPush } from "../src/push/shared.ts";

function fakeState() {
  const hash = new Map<string, string>();
  let reads = 0;
  const state = {
    keyPrefix: "t:",
    keys: { vapid: "t:push:vapid", subscriptions: "t:push:subscriptions", sent: (id: string) => id },
    vapidKeys: async () => ({ text: "", created: false }),
    listSubscriptions: async () => {
      reads++;
      return [...hash.values()];
    },
    addSubscription: async (endpoint: string, json: string) => {
      const renewed = hash.has(endpoint);
      hash.set(endpoint, json);
      return { renewed };
    },
    removeSubscription: async (endpoint: string) => hash.delete(endpoint),
    claimPush: async () => true,
    close: async () => undefined,
  } satisfies RedisPushState;
  return { state, hash, reads: () => reads };
}

const subscription = (n: number) => ({
  endpoint: `https://push.example/${n}`,
  keys: {
    p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, n)]).toString("base64url"),
    auth: Buffer.alloc(16, n).toString("base64url"),
  },
});

describe("the shared push subscriptions", () => {
  it("are read from Redis at most every 2 s, and at once after this instance's own change", async () => {
    const { state, hash, reads } = fakeState();
    let now = 1_000_000;
    const shared = openSharedPush(state, () => now, pino({ level: "silent" }));
    await shared.subscriptions.add(subscription(1));
    expect((await shared.subscriptions.list()).map((s) => s.endpoint)).toEqual(["https://push.example/1"]);
    // Another instance subscribes: seen once the list is 2 s old.
    hash.set("https://push.example/2", JSON.stringify({ ...subscription(2), createdAt: now + 1 }));
    now += 1_500;
    expect(await shared.subscriptions.list()).toHaveLength(1);
    expect(reads()).toBe(1);
    now += 600;
    expect(await shared.subscriptions.list()).toHaveLength(2);
    expect(reads()).toBe(2);
    await shared.subscriptions.remove("https://push.example/1");
    expect((await shared.subscriptions.list()).map((s) => s.endpoint)).toEqual(["https://push.example/2"]);
    expect(reads()).toBe(3);
  });

  it("asks again at once after a read failed", async () => {
    const { state, reads } = fakeState();
    const failing = { ...state, listSubscriptions: async () => Promise.reject(new Error("down")) };
    let fail = true;
    const shared = openSharedPush(
      {
        ...failing,
        listSubscriptions: () => (fail ? failing.listSubscriptions() : state.listSubscriptions()),
      },
      () => 5,
      pino({ level: "silent" }),
    );
    await expect(shared.subscriptions.list()).rejects.toThrow("down");
    fail = false;
    expect(await shared.subscriptions.list()).toEqual([]);
    expect(reads()).toBe(1);
  });
});
