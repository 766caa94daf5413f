import { describe, expect, it } from "vitest";
import {
  createAskUserClient,
  GatewayInputError,
  GatewayUnavailableError,
  QuestionNotPendingError,
} from "../src/index.ts";
import { deployInput, inProcessGateway } from "./gateways.ts";

describe("operator calls", () => {
  it("signs answers and skips with the client's surface and name", async () => {
    const gateway = await inProcessGateway();
    const cli = createAskUserClient({ url: gateway.url, surface: "cli", name: "alice" });
    const first = await cli.create(deployInput);
    const answered = await cli.answer(first.id, { deploy_target: ["Production"] });
    expect(answered.resolvedBy).toMatchObject({ channel: "cli", displayName: "alice" });

    const second = await cli.create(deployInput);
    const skipped = await cli.skip(second.id);
    expect(skipped).toMatchObject({ status: "skipped", resolvedBy: { channel: "cli" } });

    const plain = createAskUserClient({ url: gateway.url });
    const third = await plain.create(deployInput);
    expect((await plain.skip(third.id)).resolvedBy).toMatchObject({ channel: "http" });
  });

  it("stage puts one question's values in the shared draft without answering; an ended question refuses it", async () => {
    const gateway = await inProcessGateway();
    const client = createAskUserClient({ url: gateway.url, surface: "cli" });
    const question = await client.create(deployInput);
    const staged = await client.stage(question.id, "deploy_target", ["production"]);
    expect(staged).toMatchObject({ status: "pending", draft: { deploy_target: ["Production"] } });
    expect((await client.get(question.id)).draft).toEqual({ deploy_target: ["Production"] });
    await expect(client.stage(question.id, "deploy_target", ["Prodution"])).rejects.toBeInstanceOf(
      GatewayInputError,
    );
    expect((await client.stage(question.id, "deploy_target", [])).draft).toBeUndefined();
    await client.skip(question.id);
    await expect(client.stage(question.id, "deploy_target", ["Staging"])).rejects.toMatchObject({
      name: "QuestionNotPendingError",
      reason: "skipped",
    });
  });

  it("get with waitSeconds holds one long-poll and returns as soon as the question ends", async () => {
    const gateway = await inProcessGateway();
    const client = createAskUserClient({ url: gateway.url });
    const question = await client.create(deployInput);
    const started = Date.now();
    const polling = client.get(question.id, { waitSeconds: 20 });
    await new Promise((resolve) => setTimeout(resolve, 150));
    await gateway.broker.answer(
      question.id,
      { deploy_target: ["Staging"] },
      { channel: "http", userId: "bob" },
    );
    expect((await polling).status).toBe("answered");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("get with waitSeconds answers with the question still pending once the time is up", async () => {
    const gateway = await inProcessGateway();
    const client = createAskUserClient({ url: gateway.url });
    const question = await client.create(deployInput);
    const started = Date.now();
    expect((await client.get(question.id, { waitSeconds: 1 })).status).toBe("pending");
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("cancel refuses an ended question, and with ifPending returns it as it is", async () => {
    const gateway = await inProcessGateway();
    const client = createAskUserClient({ url: gateway.url, name: "alice" });
    const pending = await client.create(deployInput);
    expect((await client.cancel(pending.id, { ifPending: true })).status).toBe("cancelled");

    const question = await client.create(deployInput);
    await client.answer(question.id, { deploy_target: ["Staging"] });
    await expect(client.cancel(question.id)).rejects.toBeInstanceOf(QuestionNotPendingError);
    const kept = await client.cancel(question.id, { ifPending: true });
    expect(kept.result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Staging (Recommended)"] } },
    });
  });

  it("health reads /healthz, and a gateway that is gone is GatewayUnavailableError", async () => {
    const gateway = await inProcessGateway();
    const client = createAskUserClient({ url: gateway.url });
    expect(await client.health()).toMatchObject({ ok: true, draining: false });
    await gateway.close();
    await expect(client.health()).rejects.toBeInstanceOf(GatewayUnavailableError);
  });
});
