import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { createAskUserClient, GatewayError } from "@ask-user/client";
import { AskUserError } from "@ask-user/core";
import { describe, expect, it } from "vitest";
import { type CliContext, connect, listAll } from "../src/cli/command.ts";
import { type CliIo, reportError } from "../src/cli/io.ts";
import { closedPortUrl, deployInput, startFakeGateway } from "./cli-fake-gateway.ts";
import { call, testGateway } from "./harness.ts";

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

/** A command's context with `--url` (when given) and `env`, and what it wrote on stderr. */
function cliContext(env: Record<string, string | undefined>, url?: string) {
  let stderr = "";
  const io: CliIo = {
    stdout: { write: () => true },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from([]),
    env,
    isTTY: false,
  };
  const context: CliContext = url === undefined ? { io } : { io, url };
  return { context, stderr: () => stderr };
}

describe("the CLI's and ask-user mcp's gateway client (@ask-user/client)", () => {
  it("creates, lists, answers and reads a question with the bearer token", async () => {
    const gw = await startFakeGateway({ token: "s3cret" });
    const client = connect(cliContext({ ASK_USER_TOKEN: "s3cret" }, `${gw.url}/`).context, undefined);
    expect(client.url).toBe(gw.url);
    const created = await client.create(deployInput, { target: "telegram:42", runId: "run-1" });
    expect(created).toMatchObject({ status: "pending", target: { channel: "telegram", conversation: "42" } });
    expect((await listAll(client, { status: "pending", runId: "run-1" })).map((q) => q.id)).toEqual([
      created.id,
    ]);
    expect(await listAll(client, { runId: "other" })).toEqual([]);
    const answered = await client.answer(created.id, { deploy_target: ["Staging"] });
    expect(answered.result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Staging"] } },
    });
    expect((await client.get(created.id)).status).toBe("answered");
    expect(await client.health()).toEqual({ ok: true, draining: false });
    expect(
      gw.requests.filter((r) => r.path.startsWith("/v1")).every((r) => r.authorization === "Bearer s3cret"),
    ).toBe(true);
    expect(gw.requests.map((r) => r.path)).toContain("/v1/questions?status=pending&runId=run-1&limit=500");
  });

  it("turns a missing or wrong token into a 401 GatewayError that does not show the token", async () => {
    const gw = await startFakeGateway({ token: "s3cret" });
    const none = await failure(listAll(createAskUserClient({ url: gw.url })));
    expect(none).toMatchObject({
      name: "GatewayAuthError",
      code: "unauthorized",
      status: 401,
      reason: "unauthorized",
    });
    expect(none).toBeInstanceOf(AskUserError);
    const wrong = await failure(listAll(createAskUserClient({ url: gw.url, token: "guess-me" })));
    expect(wrong.status).toBe(401);
    expect(wrong.message).not.toContain("guess-me");
  });

  it("maps bad input to a 422 with every issue and its path", async () => {
    const gw = await startFakeGateway();
    const error = await failure(
      createAskUserClient({ url: gw.url }).create({
        questions: [{ id: "Bad Id", header: "H", question: "Q?", options: [] }],
      }),
    );
    expect(error).toMatchObject({ status: 422, reason: "invalid_input" });
    expect(error.issues?.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(["questions[0].id", "questions[0].options"]),
    );
  });

  it("maps 404 and 409 to GatewayErrors with the gateway's reason", async () => {
    const gw = await startFakeGateway();
    const client = createAskUserClient({ url: gw.url });
    expect(await failure(client.get("nope"))).toMatchObject({ status: 404, reason: "not_found" });
    const question = await client.create(deployInput);
    await client.skip(question.id);
    expect(await failure(client.answer(question.id, { deploy_target: ["Staging"] }))).toMatchObject({
      status: 409,
      reason: "skipped",
      message: "This question was skipped.",
    });
  });

  it("cancel with ifPending returns a question that already ended as it is; without, it is a 409", async () => {
    const gw = await startFakeGateway();
    const client = createAskUserClient({ url: gw.url });
    const question = await client.create(deployInput);
    expect((await client.cancel(question.id, { ifPending: true })).status).toBe("cancelled");
    expect((await client.cancel(question.id, { ifPending: true })).status).toBe("cancelled");
    const other = await client.create(deployInput);
    gw.resolve(other.id, "answered", { deploy_target: ["Production"] });
    expect((await client.cancel(other.id, { ifPending: true })).result).toMatchObject({ status: "answered" });
    expect(await failure(client.cancel(other.id))).toMatchObject({
      status: 409,
      reason: "answered",
    });
  });

  it("long-polls with ?wait= and returns as soon as the question is answered", async () => {
    const gw = await startFakeGateway();
    const client = createAskUserClient({ url: gw.url });
    const question = await client.create(deployInput);
    setTimeout(() => gw.resolve(question.id, "answered", { deploy_target: ["Staging"] }), 150);
    const started = Date.now();
    const answered = await client.get(question.id, { waitSeconds: 10 });
    expect(answered.status).toBe("answered");
    expect(Date.now() - started).toBeLessThan(3000);
    expect(gw.requests.at(-1)?.path).toBe(`/v1/questions/${question.id}?wait=10`);
  });

  it("stops a long poll when its AbortSignal fires", async () => {
    const gw = await startFakeGateway();
    const client = createAskUserClient({ url: gw.url });
    const question = await client.create(deployInput);
    const started = Date.now();
    const outcome = await client.get(question.id, { waitSeconds: 20, signal: AbortSignal.timeout(150) }).then(
      () => "resolved",
      (error: unknown) => (error as Error).name,
    );
    expect(outcome).toBe("TimeoutError");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("reports a gateway that is not running as unreachable, with how to start one", async () => {
    const url = await closedPortUrl();
    const { context, stderr } = cliContext({}, `${url}/`);
    const client = connect(context, undefined);
    const error = await failure(client.health());
    expect(error).toMatchObject({ status: 0, reason: "unreachable", code: "unavailable" });
    expect(error.message).toBe(`No ask-user gateway answers at ${url} (ECONNREFUSED).`);
    expect(reportError(context.io, error, undefined, client.url)).toBe(1);
    expect(stderr()).toBe(
      `No ask-user gateway answers at ${url}. Start one with \`pnpm start\` (or set ASK_USER_URL).\n`,
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
      const error = await failure(listAll(createAskUserClient({ url: `http://127.0.0.1:${port}` })));
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
    const client = createAskUserClient({ url: gw.url, surface: "cli" });
    const first = await client.create(deployInput);
    expect((await client.answer(first.id, { deploy_target: ["Staging"] })).resolvedBy).toMatchObject({
      channel: "cli",
    });
    const second = await client.create(deployInput);
    expect((await client.skip(second.id)).resolvedBy).toMatchObject({ channel: "cli" });
  });

  it("hands out one page at a time with listPage", async () => {
    const gw = await testGateway();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await call(`${gw.url}/v1/questions`, "POST", deployInput)).body.id);
    const client = createAskUserClient({ url: gw.url });
    const first = await client.listPage({ limit: 2 });
    expect(first.questions.map((q) => q.id)).toEqual(ids.slice(0, 2));
    expect(first.nextCursor).toEqual(expect.any(String));
    const rest = await client.listPage({ limit: 2, cursor: first.nextCursor ?? "" });
    expect(rest).toEqual({ questions: [expect.objectContaining({ id: ids[2] })] });
    expect(await failure(client.listPage({ cursor: "nope" }))).toMatchObject({
      status: 400,
      reason: "invalid_query",
    });
  });

  it("wait rides out a gateway that goes away and comes back, and tells who asked", async () => {
    const gw = await startFakeGateway();
    const client = createAskUserClient({ url: gw.url });
    const question = await client.create(deployInput);
    const events: string[] = [];
    const waiting = client.wait(question.id, {
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

  it("wait on an unknown question is a 404 GatewayError", async () => {
    const gw = await startFakeGateway();
    expect(await failure(createAskUserClient({ url: gw.url }).wait("nope"))).toMatchObject({
      status: 404,
      reason: "not_found",
    });
  });
});
