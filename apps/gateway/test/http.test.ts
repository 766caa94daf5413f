import { describe, expect, it } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";

describe("HTTP API", () => {
  it("creates a question, lists it, answers it, and refuses a second answer with 409 and the reason", async () => {
    const gw = await testGateway();
    const created = await call(`${gw.url}/v1/questions`, "POST", { ...deployInput, runId: "run-1" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: "pending",
      runId: "run-1",
      prompt: { timeoutSeconds: 900 },
    });
    expect(created.body.tokens).toBeUndefined();
    const id = created.body.id as string;
    const list = await call(`${gw.url}/v1/questions?status=pending&runId=run-1`, "GET");
    expect(list.body.questions.map((q: { id: string }) => q.id)).toEqual([id]);
    expect((await call(`${gw.url}/v1/questions?runId=other`, "GET")).body.questions).toEqual([]);
    const answered = await call(`${gw.url}/v1/questions/${id}/answer`, "POST", {
      answers: { deploy_target: ["production"] },
      surface: "cli",
      name: "alice",
    });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({
      status: "answered",
      answers: { deploy_target: ["Production"] },
      resolvedBy: { channel: "cli", displayName: "alice" },
      result: { status: "answered", answers: { answers: { deploy_target: ["Production"] } } },
    });
    const again = await call(`${gw.url}/v1/questions/${id}/answer`, "POST", {
      answers: { deploy_target: ["Staging"] },
    });
    expect(again).toEqual({
      status: 409,
      body: { error: { code: "answered", message: "This question was already answered by alice via CLI." } },
    });
    expect((await call(`${gw.url}/v1/questions/${id}/skip`, "POST")).status).toBe(409);
    expect((await call(`${gw.url}/v1/questions/${id}`, "DELETE")).body.error.code).toBe("answered");
  });

  it("answers bad tool input with 422 and every issue with its path", async () => {
    const gw = await testGateway();
    const response = await call(`${gw.url}/v1/questions`, "POST", {
      questions: [{ id: "Bad Id", header: "", question: "Q?", options: [{ label: "Other" }] }],
      timeoutSeconds: "soon",
      target: "nowhere",
      extra: true,
    });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe("invalid_input");
    // Every problem at once: the envelope's and the tool input's.
    expect(response.body.error.issues.map((i: { path: string }) => i.path)).toEqual([
      "extra",
      "target",
      "questions[0].id",
      "questions[0].header",
      "questions[0].options",
      "questions[0].options[0].label",
      "timeoutSeconds",
    ]);
    const input = await call(`${gw.url}/v1/questions`, "POST", {
      questions: [{ id: "Bad Id", header: "", question: "Q?", options: [{ label: "Other" }] }],
      timeoutSeconds: "soon",
    });
    expect(input.body.error.issues.map((i: { path: string }) => i.path)).toEqual([
      "questions[0].id",
      "questions[0].header",
      "questions[0].options",
      "questions[0].options[0].label",
      "timeoutSeconds",
    ]);
    expect(input.body.error.message).not.toMatch(/\n\s+at /);
  });

  it("answers malformed requests with 4xx JSON bodies, never a crash", async () => {
    const gw = await testGateway();
    expect(await call(`${gw.url}/v1/questions`, "POST", "{not json")).toMatchObject({
      status: 400,
      body: { error: { code: "invalid_json" } },
    });
    expect(await call(`${gw.url}/v1/questions`, "POST", "[1]")).toMatchObject({
      status: 400,
      body: { error: { code: "invalid_body" } },
    });
    expect(await call(`${gw.url}/v1/questions/nope`, "GET")).toMatchObject({
      status: 404,
      body: { error: { code: "not_found" } },
    });
    expect(await call(`${gw.url}/v1/nothing`, "GET")).toMatchObject({ status: 404 });
    expect(await call(`${gw.url}/v1/questions`, "PUT")).toMatchObject({ status: 405 });
    expect(await call(`${gw.url}/v1/questions?status=maybe`, "GET")).toMatchObject({ status: 400 });
    const created = await call(`${gw.url}/v1/questions`, "POST", deployInput);
    const bad = await call(`${gw.url}/v1/questions/${created.body.id}/answer`, "POST", {
      answers: { nope: ["x"] },
    });
    expect(bad).toMatchObject({ status: 422, body: { error: { code: "invalid_answers" } } });
    expect(bad.body.error.issues.map((i: { path: string }) => i.path)).toEqual([
      "answers.nope",
      "answers.deploy_target",
    ]);
    const missing = await call(`${gw.url}/v1/questions/${created.body.id}/answer`, "POST", {});
    expect(missing.status).toBe(422);
    const text = await fetch(`${gw.url}/v1/questions`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "hi",
    });
    expect(text.status).toBe(415);
  });

  it("long-polls GET ?wait= until the question is answered", async () => {
    const gw = await testGateway();
    const { body } = await call(`${gw.url}/v1/questions`, "POST", deployInput);
    const started = Date.now();
    const polling = call(`${gw.url}/v1/questions/${body.id}?wait=10`, "GET");
    await new Promise((resolve) => setTimeout(resolve, 200));
    await call(`${gw.url}/v1/questions/${body.id}/skip`, "POST", {});
    const polled = await polling;
    expect(polled.body).toMatchObject({
      status: "skipped",
      result: { status: "no_answer", reason: "skipped" },
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    // A wait that ends without news returns the pending question.
    const other = await call(`${gw.url}/v1/questions`, "POST", deployInput);
    expect((await call(`${gw.url}/v1/questions/${other.body.id}?wait=0.3`, "GET")).body.status).toBe(
      "pending",
    );
  });

  it("POST /v1/ask waits for the answer and returns the result", async () => {
    const gw = await testGateway();
    const asking = call(`${gw.url}/v1/ask`, "POST", { ...deployInput, runId: "run-ask" });
    let pending: Array<{ id: string }> = [];
    for (let i = 0; i < 50 && pending.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      pending = (await call(`${gw.url}/v1/questions?runId=run-ask`, "GET")).body.questions;
    }
    await call(`${gw.url}/v1/questions/${pending[0]?.id}/answer`, "POST", {
      answers: { deploy_target: ["1"] },
    });
    expect(await asking).toEqual({
      status: 200,
      body: { status: "answered", answers: { answers: { deploy_target: ["1"] } } },
    });
  });

  it("cancels the question when the /v1/ask client goes away", async () => {
    const gw = await testGateway();
    const abort = new AbortController();
    const asking = fetch(`${gw.url}/v1/ask`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...deployInput, runId: "run-gone" }),
      signal: abort.signal,
    }).catch(() => "aborted");
    let questions: Array<{ id: string; status: string }> = [];
    for (let i = 0; i < 50 && questions.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      questions = (await call(`${gw.url}/v1/questions?runId=run-gone`, "GET")).body.questions;
    }
    abort.abort();
    expect(await asking).toBe("aborted");
    let status = "pending";
    for (let i = 0; i < 100 && status === "pending"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = (await call(`${gw.url}/v1/questions/${questions[0]?.id}`, "GET")).body.status;
    }
    expect(status).toBe("cancelled");
  });

  it("requires the bearer token when one is set, and keeps /healthz open", async () => {
    const token = "t0ken-for-the-tests-0123456789";
    const gw = await testGateway({ ASK_USER_TOKEN: token });
    expect(await call(`${gw.url}/v1/questions`, "GET")).toMatchObject({
      status: 401,
      body: { error: { code: "unauthorized" } },
    });
    expect(
      (await call(`${gw.url}/v1/questions`, "GET", undefined, { authorization: "Bearer wrong" })).status,
    ).toBe(401);
    expect(
      (await call(`${gw.url}/v1/questions`, "GET", undefined, { authorization: `Bearer ${token}` })).status,
    ).toBe(200);
    // The query token is for EventSource on /v1/events only: anywhere else it is refused.
    const query = await call(`${gw.url}/v1/questions?token=${token}`, "GET");
    expect(query.status).toBe(401);
    expect(query.body.error.message).toContain("only on GET /v1/events");
    expect((await call(`${gw.url}/mcp`, "POST", {})).status).toBe(401);
    expect(await call(`${gw.url}/healthz`, "GET")).toEqual({
      status: 200,
      body: { ok: true, draining: false, pid: process.pid, channels: {} },
    });
  });
});
