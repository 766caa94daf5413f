import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { AskUserError } from "@ask-user/core";
import { describe, expect, it } from "vitest";
import { BackendError, waitForResult } from "../src/backend.ts";
import { createHttpBackend } from "../src/http-client.ts";
import { closedPortUrl, deployInput, startFakeGateway } from "./cli-fake-gateway.ts";
import { call, testGateway } from "./harness.ts";

async function failure(promise: Promise<unknown>): Promise<BackendError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(BackendError);
  return error as BackendError;
}

describe("HTTP backend", () => {
  it("creates, lists, answers and reads a question with the bearer token", async () => {
    const gw = await startFakeGateway({ token: "s3cret" });
    const backend = createHttpBackend({ url: `${gw.url}/`, token: "s3cret" });
    const created = await backend.create({ ...deployInput, target: "telegram:42", runId: "run-1" });
    expect(created).toMatchObject({ status: "pending", target: { channel: "telegram", conversation: "42" } });
    expect((await backend.list({ status: "pending", runId: "run-1" })).map((q) => q.id)).toEqual([
      created.id,
    ]);
    expect(await backend.list({ runId: "other" })).toEqual([]);
    const answered = await backend.answer(created.id, { deploy_target: ["Staging"] });
    expect(answered.result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Staging"] } },
    });
    expect((await backend.get(created.id)).status).toBe("answered");
    expect(await backend.health()).toEqual({ ok: true, draining: false });
    expect(
      gw.requests.filter((r) => r.path.startsWith("/v1")).every((r) => r.authorization === "Bearer s3cret"),
    ).toBe(true);
    expect(gw.requests.map((r) => r.path)).toContain("/v1/questions?status=pending&runId=run-1&limit=500");
  });

  it("turns a missing or wrong token into a 401 BackendError that does not show the token", async () => {
    const gw = await startFakeGateway({ token: "s3cret" });
    const none = await failure(createHttpBackend({ url: gw.url }).list());
    expect(none).toMatchObject({
      name: "BackendError",
      code: "unauthorized",
      status: 401,
      reason: "unauthorized",
    });
    expect(none).toBeInstanceOf(AskUserError);
    const wrong = await failure(createHttpBackend({ url: gw.url, token: "guess-me" }).list());
    expect(wrong.status).toBe(401);
    expect(wrong.message).not.toContain("guess-me");
  });

  it("maps bad input to a 422 with every issue and its path", async () => {
    const gw = await startFakeGateway();
    const error = await failure(
      createHttpBackend({ url: gw.url }).create({
        questions: [{ id: "Bad Id", header: "H", question: "Q?", options: [] }],
      }),
    );
    expect(error).toMatchObject({ status: 422, reason: "invalid_input" });
    expect(error.issues?.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(["questions[0].id", "questions[0].options"]),
    );
  });

  it("maps 404 and 409 to BackendErrors with the gateway's reason", async () => {
    const gw = await startFakeGateway();
    const backend = createHttpBackend({ url: gw.url });
    expect(await failure(backend.get("nope"))).toMatchObject({ status: 404, reason: "not_found" });
    const question = await backend.create(deployInput);
    await backend.skip(question.id);
    expect(await failure(backend.answer(question.id, { deploy_target: ["Staging"] }))).toMatchObject({
      status: 409,
      reason: "skipped",
      message: "This question was skipped.",
    });
  });

  it("cancel returns a question that already ended as it is, unless asked to be strict", async () => {
    const gw = await startFakeGateway();
    const backend = createHttpBackend({ url: gw.url });
    const question = await backend.create(deployInput);
    expect((await backend.cancel(question.id)).status).toBe("cancelled");
    expect((await backend.cancel(question.id)).status).toBe("cancelled");
    const other = await backend.create(deployInput);
    gw.resolve(other.id, "answered", { deploy_target: ["Production"] });
    expect((await backend.cancel(other.id)).result).toMatchObject({ status: "answered" });
    expect(await failure(backend.cancel(other.id, { strict: true }))).toMatchObject({
      status: 409,
      reason: "answered",
    });
  });

  it("long-polls with ?wait= and returns as soon as the question is answered", async () => {
    const gw = await startFakeGateway();
    const backend = createHttpBackend({ url: gw.url });
    const question = await backend.create(deployInput);
    setTimeout(() => gw.resolve(question.id, "answered", { deploy_target: ["Staging"] }), 150);
    const started = Date.now();
    const answered = await backend.get(question.id, { waitSeconds: 10 });
    expect(answered.status).toBe("answered");
    expect(Date.now() - started).toBeLessThan(3000);
    expect(gw.requests.at(-1)?.path).toBe(`/v1/questions/${question.id}?wait=10`);
  });

  it("stops a long poll when its AbortSignal fires", async () => {
    const gw = await startFakeGateway();
    const backend = createHttpBackend({ url: gw.url });
    const question = await backend.create(deployInput);
    const started = Date.now();
    const outcome = await backend
      .get(question.id, { waitSeconds: 20, signal: AbortSignal.timeout(150) })
      .then(
        () => "resolved",
        (error: unknown) => (error as Error).name,
      );
    expect(outcome).toBe("TimeoutError");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("waits for a result through waitForResult and cancels the question when aborted", async () => {
    const gw = await startFakeGateway();
    const backend = createHttpBackend({ url: gw.url });
    const question = await backend.create(deployInput);
    setTimeout(() => gw.resolve(question.id, "expired"), 100);
    expect(await waitForResult(backend, question, { sliceSeconds: 5 })).toEqual({
      status: "no_answer",
      reason: "expired",
    });
    const second = await backend.create(deployInput);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await waitForResult(backend, second, { signal: controller.signal, sliceSeconds: 5 })).toEqual({
      status: "no_answer",
      reason: "cancelled",
    });
    expect(gw.questions.get(second.id)?.status).toBe("cancelled");
  });

  it("reports a gateway that is not running as unreachable, with how to start one", async () => {
    const url = await closedPortUrl();
    const error = await failure(createHttpBackend({ url }).health());
    expect(error).toMatchObject({ status: 0, reason: "unreachable" });
    expect(error.message).toBe(
      `No ask-user gateway answers at ${url}. Start one with \`pnpm start\` (or set ASK_USER_URL).`,
    );
  });

  it("reports a response that is not the API's error shape by its HTTP status", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<h1>Bad Gateway</h1>");
    });
    await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
    try {
      const { port } = server.address() as AddressInfo;
      const error = await failure(createHttpBackend({ url: `http://127.0.0.1:${port}` }).list());
      expect(error).toMatchObject({
        status: 502,
        reason: "http_502",
        message: "The gateway answered with HTTP 502.",
      });
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it("signs answers and skips with its surface", async () => {
    const gw = await testGateway();
    const backend = createHttpBackend({ url: gw.url, surface: "cli" });
    const first = await backend.create(deployInput);
    expect((await backend.answer(first.id, { deploy_target: ["Staging"] })).resolvedBy).toMatchObject({
      channel: "cli",
    });
    const second = await backend.create(deployInput);
    expect((await backend.skip(second.id)).resolvedBy).toMatchObject({ channel: "cli" });
  });

  it("hands out one page at a time with listPage", async () => {
    const gw = await testGateway();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await call(`${gw.url}/v1/questions`, "POST", deployInput)).body.id);
    const backend = createHttpBackend({ url: gw.url });
    const first = await backend.listPage({ limit: 2 });
    expect(first.questions.map((q) => q.id)).toEqual(ids.slice(0, 2));
    expect(first.nextCursor).toEqual(expect.any(String));
    const rest = await backend.listPage({ limit: 2, cursor: first.nextCursor ?? "" });
    expect(rest).toEqual({ questions: [expect.objectContaining({ id: ids[2] })] });
    expect(await failure(backend.listPage({ cursor: "nope" }))).toMatchObject({
      status: 400,
      reason: "invalid_query",
    });
  });

  it("wait rides out a gateway that goes away and comes back, and tells who asked", async () => {
    const gw = await startFakeGateway();
    const backend = createHttpBackend({ url: gw.url });
    const question = await backend.create(deployInput);
    const events: string[] = [];
    const waiting = backend.wait(question.id, {
      retry: { initialDelayMs: 50, maxDelayMs: 200 },
      onRetry: ({ attempt }) => events.push(`retry ${attempt}`),
      onReconnect: () => events.push("reconnected"),
    });
    for (let i = 0; i < 250 && !gw.requests.some((r) => r.path.includes("?wait=")); i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await gw.down();
    for (let i = 0; i < 250 && events.length < 2; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    gw.resolve(question.id, "answered", { deploy_target: ["Production"] });
    await gw.up();
    expect((await waiting).result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(events.slice(0, 2)).toEqual(["retry 1", "retry 2"]);
    expect(events.at(-1)).toBe("reconnected");
  });

  it("wait on an unknown question is a 404 BackendError", async () => {
    const gw = await startFakeGateway();
    expect(await failure(createHttpBackend({ url: gw.url }).wait("nope"))).toMatchObject({
      status: 404,
      reason: "not_found",
    });
  });
});
