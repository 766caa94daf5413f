/**
 * `startGateway({ store })`: an embedding application's own store, which the gateway uses and leaves
 * open; and a port already taken leaves nothing of the gateway running.
 */
import { createMemoryStore } from "@ask-user/core";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { startGateway } from "../src/gateway.ts";
import { call, deployInput, testGateway } from "./harness.ts";

const silent = pino({ level: "silent" });

describe("a gateway on the caller's store", () => {
  it("keeps its questions in that store and leaves it open when it closes", async () => {
    const store = createMemoryStore();
    const gateway = await startGateway({ env: { ASK_USER_PORT: "0" }, logger: silent, store });
    const { status, body } = await call(`${gateway.url}/v1/questions`, "POST", deployInput);
    expect(status).toBe(201);
    expect((await store.get(body.id))?.status).toBe("pending");
    const answered = await call(`${gateway.url}/v1/questions/${body.id}/answer`, "POST", {
      answers: { deploy_target: ["Production"] },
    });
    expect(answered.status).toBe(200);
    await gateway.close();
    expect((await store.get(body.id))?.status).toBe("answered"); // still open: the caller's to close
    await store.close();
  });

  it("fails on a port that is taken, leaving the caller's store open and usable", async () => {
    const first = await testGateway();
    const port = new URL(first.url).port;
    const store = createMemoryStore();
    const starting = startGateway({ env: { ASK_USER_PORT: port }, logger: silent, store });
    await expect(starting).rejects.toMatchObject({ code: "EADDRINUSE" });
    expect(await store.firstSeen("still-open", 60_000)).toBe(true);
    await store.close();
  });
});
