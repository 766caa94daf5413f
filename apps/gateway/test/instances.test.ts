import { type RedisServer, startRedisServer } from "@ask-user/testkit/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";

let redis: (RedisServer & { stop(): Promise<void> }) | undefined;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

describe("several gateway instances over one Redis (ASK_USER_REDIS_URL)", () => {
  it("an answer taken by one instance returns the /v1/ask waiting on another", async () => {
    const env = { ASK_USER_REDIS_URL: redis?.url ?? "" };
    const a = await testGateway(env);
    const b = await testGateway(env);
    const asking = call(`${a.url}/v1/ask`, "POST", { ...deployInput, runId: "shared-run" });
    let id: string | undefined;
    for (let i = 0; i < 100 && id === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      id = (await call(`${b.url}/v1/questions?runId=shared-run&status=pending`, "GET")).body.questions[0]?.id;
    }
    expect(id).toBeDefined();
    const answered = await call(`${b.url}/v1/questions/${id}/answer`, "POST", {
      answers: { deploy_target: ["Production"] },
    });
    expect(answered.status).toBe(200);
    expect(await asking).toEqual({
      status: 200,
      body: { status: "answered", answers: { answers: { deploy_target: ["Production"] } } },
    });
    // The first answer wins across instances too.
    const late = await call(`${a.url}/v1/questions/${id}/answer`, "POST", {
      answers: { deploy_target: ["Staging"] },
    });
    expect(late).toMatchObject({ status: 409, body: { error: { code: "answered" } } });
  }, 30_000);

  it("refuses to start when Redis cannot be reached", async () => {
    await expect(testGateway({ ASK_USER_REDIS_URL: "redis://127.0.0.1:1" })).rejects.toMatchObject({
      code: "store_failure",
    });
  }, 30_000);
});
