import { afterEach, describe, expect, it } from "vitest";
import { createRedisPushState, type RedisPushState } from "../src/index.ts";
import { recordingLogger, rejectsWith } from "./helpers.ts";
import { freshPrefix, useRedisServer } from "./redis-server.ts";

const redis = useRedisServer();
const opened: RedisPushState[] = [];

afterEach(async () => {
  for (const state of opened.splice(0)) await state.close();
});

/** Two instances' push states on one server and prefix (as two gateways have). */
function instances(count: number, keyPrefix = freshPrefix()): RedisPushState[] {
  return Array.from({ length: count }, () => {
    const state = createRedisPushState({ url: redis().url, keyPrefix, logger: recordingLogger() });
    opened.push(state);
    return state;
  });
}

const subscription = (endpoint: string, createdAt: number) => JSON.stringify({ endpoint, createdAt });

describe("the Web Push state several instances share", () => {
  it("keeps one VAPID key pair: of instances starting together exactly one stores its candidate, all get it", async () => {
    const states = instances(5);
    const results = await Promise.all(states.map((state, n) => state.vapidKeys(`{"pair":${n}}`)));
    expect(results.filter((result) => result.created)).toHaveLength(1);
    const winner = results.find((result) => result.created)?.text;
    expect(results.map((result) => result.text)).toEqual(states.map(() => winner));
    // A later start (a restarted instance) reads the same pair and makes none.
    await Promise.all(states.map((state) => state.close()));
    const [later] = instances(1, states[0]?.keyPrefix);
    expect(await later?.vapidKeys('{"pair":"new"}')).toEqual({ text: winner, created: false });
  });

  it("shares subscriptions: added on one, listed and removed on the other, renewed without a duplicate", async () => {
    const [a, b] = instances(2);
    if (!a || !b) throw new Error("two states");
    expect(
      await a.addSubscription("https://push.example/1", subscription("https://push.example/1", 1), 10),
    ).toEqual({
      renewed: false,
    });
    expect(await b.listSubscriptions()).toEqual([subscription("https://push.example/1", 1)]);
    expect(
      await b.addSubscription("https://push.example/1", subscription("https://push.example/1", 2), 10),
    ).toEqual({
      renewed: true,
    });
    expect(await a.listSubscriptions()).toEqual([subscription("https://push.example/1", 2)]);
    expect(await b.removeSubscription("https://push.example/1")).toBe(true);
    expect(await a.removeSubscription("https://push.example/1")).toBe(false);
    expect(await a.listSubscriptions()).toEqual([]);
  });

  it("makes room by removing the subscription with the oldest createdAt, never a renewed one", async () => {
    const [state] = instances(1);
    if (!state) throw new Error("a state");
    for (const [n, at] of [
      [1, 300],
      [2, 100],
      [3, 200],
    ] as const) {
      await state.addSubscription(`e${n}`, subscription(`e${n}`, at), 3);
    }
    // A renewal at the limit replaces nothing.
    expect(await state.addSubscription("e2", subscription("e2", 400), 3)).toEqual({ renewed: true });
    const added = await state.addSubscription("e4", subscription("e4", 500), 3);
    expect(added).toEqual({ renewed: false, replaced: subscription("e3", 200) });
    const left = (await state.listSubscriptions()).map((json) => JSON.parse(json).endpoint).sort();
    expect(left).toEqual(["e1", "e2", "e4"]);
  });

  it("lets exactly one instance claim the push of a question, until the claim expires", async () => {
    const states = instances(4);
    const claims = await Promise.all(states.map((state) => state.claimPush("q-1", 60_000)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await states[0]?.claimPush("q-2", 60_000)).toBe(true);
    const [short] = instances(1);
    expect(await short?.claimPush("q-3", 50)).toBe(true);
    const deadline = Date.now() + 5_000;
    let again = false;
    while (!again && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      again = (await short?.claimPush("q-3", 50)) ?? false;
    }
    expect(again).toBe(true);
  });

  it("fails with store_failure when Redis can't be asked, and with closed after close()", async () => {
    const down = createRedisPushState({
      url: "redis://127.0.0.1:1",
      logger: recordingLogger(),
      commandTimeoutMs: 300,
      redis: { retryStrategy: () => null },
    });
    opened.push(down);
    await expect(down.claimPush("q", 1000)).rejects.toSatisfy(rejectsWith("store_failure"));
    const [state] = instances(1);
    await state?.close();
    await expect(state?.listSubscriptions()).rejects.toSatisfy(rejectsWith("closed"));
  });
});
