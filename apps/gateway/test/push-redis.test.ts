import { execFileSync } from "node:child_process";
import { type RedisServer, startRedisServer } from "@ask-user/testkit/redis";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningGateway } from "../src/gateway.ts";
import { call, deployInput, testGateway } from "./harness.ts";
import { pushEndpoint } from "./push-endpoint.ts";

/**
 * Web Push with several gateway instances on one Redis (ASK_USER_REDIS_URL): one key pair, the
 * subscriptions shared, each new question pushed once. A panel behind a load balancer fetches the key
 * from one instance and posts its subscription to another.
 */

let redis: (RedisServer & { stop(): Promise<void> }) | undefined;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});
// Every test starts on an empty server (it keeps nothing: killed and started again). The harness has
// closed the previous test's gateways by then.
beforeEach(async () => {
  await redis?.kill();
  await redis?.start();
});

const env = () => ({ ASK_USER_REDIS_URL: redis?.url ?? "" });

/** Waits (bounded) until `check` is true. */
async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The ids of the new questions `gateway` has heard of (from any instance). */
function heard(gateway: RunningGateway): Set<string> {
  const ids = new Set<string>();
  gateway.broker.subscribe((event) => {
    if (event.type === "question.requested") ids.add(event.record.id);
  });
  return ids;
}

/** A gateway whose log lines the test can read. */
async function loggingGateway(lines: string[]): Promise<RunningGateway> {
  const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line).msg) });
  return testGateway(env(), { logger });
}

const publicKeyOf = async (gateway: RunningGateway): Promise<string> =>
  (await call(`${gateway.url}/v1/push/key`, "GET")).body.publicKey;

describe("Web Push with several instances on one Redis", () => {
  it("serves one VAPID public key from every instance, made by the first to start", async () => {
    const [a, b] = await Promise.all([testGateway(env()), testGateway(env())]);
    if (!a || !b) throw new Error("two gateways");
    const key = await publicKeyOf(a);
    expect(Buffer.from(key, "base64url")).toHaveLength(65);
    expect(await publicKeyOf(b)).toBe(key);
    const c = await testGateway(env());
    expect(await publicKeyOf(c)).toBe(key);
  }, 30_000);

  it("pushes each new question once per subscription, signed with the key the panel got, whichever instance took the subscription or the question", async () => {
    const a = await testGateway(env());
    const b = await testGateway(env());
    const [heardA, heardB] = [heard(a), heard(b)];
    const device = await pushEndpoint();
    const publicKey = await publicKeyOf(a);
    // The panel got the key from a and subscribes through b; later it renews through a.
    expect((await call(`${b.url}/v1/push/subscriptions`, "POST", device.subscription)).status).toBe(201);
    expect((await call(`${a.url}/v1/push/subscriptions`, "POST", device.subscription)).status).toBe(200);

    const ids: string[] = [];
    for (const gateway of [a, b, a, b]) {
      const created = await call(`${gateway.url}/v1/questions`, "POST", deployInput);
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    await until(
      () => ids.every((id) => heardA.has(id) && heardB.has(id)),
      "both instances heard every question",
    );
    await Promise.all([a.close(), b.close()]); // each waits for its pushes in flight
    expect(device.failures).toEqual([]);
    expect(device.received.map((push) => push.payload.id).sort()).toEqual([...ids].sort());
    expect(device.received.map((push) => push.vapidKey)).toEqual(ids.map(() => publicKey));
  }, 30_000);

  it("keeps the keys and the subscriptions when an instance restarts", async () => {
    const first = await testGateway(env());
    const publicKey = await publicKeyOf(first);
    const device = await pushEndpoint();
    expect((await call(`${first.url}/v1/push/subscriptions`, "POST", device.subscription)).status).toBe(201);
    await first.close();

    const again = await testGateway(env());
    expect(await publicKeyOf(again)).toBe(publicKey);
    const created = await call(`${again.url}/v1/questions`, "POST", deployInput);
    await until(() => device.received.length === 1, "the push after the restart");
    expect(device.received[0]?.payload.id).toBe(created.body.id);
    expect(device.received[0]?.vapidKey).toBe(publicKey);
    // The browser subscribing again is the subscription kept, not a second one.
    expect((await call(`${again.url}/v1/push/subscriptions`, "POST", device.subscription)).status).toBe(200);
  }, 30_000);

  it("removes a subscription whose push service answers 410 Gone for every instance", async () => {
    const lines: string[] = [];
    const a = await loggingGateway(lines);
    const b = await loggingGateway(lines);
    const [heardA, heardB] = [heard(a), heard(b)];
    const gone = await pushEndpoint();
    const healthy = await pushEndpoint();
    gone.status = 410;
    expect((await call(`${a.url}/v1/push/subscriptions`, "POST", gone.subscription)).status).toBe(201);
    expect((await call(`${b.url}/v1/push/subscriptions`, "POST", gone.subscription)).status).toBe(200);
    expect((await call(`${b.url}/v1/push/subscriptions`, "POST", healthy.subscription)).status).toBe(201);

    await call(`${b.url}/v1/questions`, "POST", deployInput);
    await until(() => lines.includes("push subscription gone: removed"), "the gone subscription removed");
    for (const gateway of [a, b]) {
      const { endpoint } = gone.subscription;
      const removed = await call(`${gateway.url}/v1/push/subscriptions`, "DELETE", { endpoint });
      expect(removed.status).toBe(404);
    }
    const later = await call(`${a.url}/v1/questions`, "POST", deployInput);
    await until(() => heardA.has(later.body.id) && heardB.has(later.body.id), "both heard the next question");
    await Promise.all([a.close(), b.close()]);
    expect(gone.received).toHaveLength(1);
    expect(healthy.received.map((push) => push.payload.id)).toHaveLength(2);
    expect(lines.filter((line) => line === "push subscription gone: removed")).toHaveLength(1);
  }, 30_000);

  it("pushes anyway when Redis can't say whether a sibling pushes the question", async () => {
    const lines: string[] = [];
    const gateway = await loggingGateway(lines);
    const device = await pushEndpoint();
    expect((await call(`${gateway.url}/v1/push/subscriptions`, "POST", device.subscription)).status).toBe(
      201,
    );
    // From now on Redis refuses the claim keys (push:sent:…) and nothing else.
    const keys = ["~ask-user:[^p]*", "~ask-user:push:vapid", "~ask-user:push:subscriptions"];
    execFileSync("redis-cli", ["-p", String(redis?.port), "ACL", "SETUSER", "default", "resetkeys", ...keys]);

    const created = await call(`${gateway.url}/v1/questions`, "POST", deployInput);
    expect(created.status).toBe(201);
    await until(() => device.received.length === 1, "the push");
    expect(device.received[0]?.payload.id).toBe(created.body.id);
    expect(lines).toContain("could not ask Redis whether another instance pushes this question; pushing it");
  }, 30_000);

  it("answers 503 (try again) to a subscription it can't store or remove while Redis is down", async () => {
    const gateway = await testGateway(env());
    const device = await pushEndpoint();
    await redis?.kill();
    const refused = await call(`${gateway.url}/v1/push/subscriptions`, "POST", device.subscription);
    expect(refused.status).toBe(503);
    expect(refused.body.error.message).toBe(
      "The push subscriptions can't be reached right now; try again in a few seconds.",
    );
    const { endpoint } = device.subscription;
    expect((await call(`${gateway.url}/v1/push/subscriptions`, "DELETE", { endpoint })).status).toBe(503);
  }, 30_000);
});
