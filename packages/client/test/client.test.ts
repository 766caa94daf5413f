import { AskUserError } from "@ask-user/core";
import { createFakeClock } from "@ask-user/core/testing";
import { describe, expect, it } from "vitest";
import {
  createAskUserClient,
  GatewayAuthError,
  GatewayInputError,
  QuestionNotFoundError,
  QuestionNotPendingError,
} from "../src/index.ts";
import { deployInput, inProcessGateway, until } from "./gateways.ts";

describe("ask against a real gateway", () => {
  it("resolves with the answer a person gives through the API, signed with their name", async () => {
    const gateway = await inProcessGateway();
    const agent = createAskUserClient({ url: gateway.url });
    const person = createAskUserClient({ url: gateway.url, name: "alice" });

    const asking = agent.ask(deployInput, { runId: "run-1" });
    const pending = await until(
      async () => (await person.listPage({ status: "pending", runId: "run-1" })).questions[0],
    );
    expect(pending.prompt.questions[0]?.question).toBe("Where should I deploy?");
    const answered = await person.answer(pending.id, { deploy_target: ["production"] });

    expect(await asking).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(answered.resolvedBy).toMatchObject({ channel: "http", displayName: "alice" });
  });

  it("aborting the signal cancels the question and resolves with cancelled", async () => {
    const gateway = await inProcessGateway();
    const client = createAskUserClient({ url: gateway.url });
    const run = new AbortController();

    const asking = client.ask(deployInput, { runId: "run-abort", signal: run.signal });
    const pending = await until(async () => (await client.listPage({ runId: "run-abort" })).questions[0]);
    run.abort();

    expect(await asking).toEqual({ status: "no_answer", reason: "cancelled" });
    expect((await client.get(pending.id)).status).toBe("cancelled");
  });

  it("an already aborted signal asks nothing", async () => {
    const gateway = await inProcessGateway();
    const client = createAskUserClient({ url: gateway.url });
    expect(await client.ask(deployInput, { signal: AbortSignal.abort() })).toEqual({
      status: "no_answer",
      reason: "cancelled",
    });
    expect((await client.listPage()).questions).toEqual([]);
  });

  it("resolves with expired when nobody answers before the deadline", async () => {
    const clock = createFakeClock(Date.UTC(2026, 0, 1));
    const gateway = await inProcessGateway({}, clock);
    const client = createAskUserClient({ url: gateway.url });

    const asking = client.ask({ ...deployInput, timeoutSeconds: 60 });
    await until(async () => (await client.listPage({ status: "pending" })).questions[0]);
    await clock.advance(61_000);

    expect(await asking).toEqual({ status: "no_answer", reason: "expired" });
  });

  it("resolves with skipped when the person skips", async () => {
    const gateway = await inProcessGateway();
    const client = createAskUserClient({ url: gateway.url });
    const asking = client.ask(deployInput);
    const pending = await until(async () => (await client.listPage({ status: "pending" })).questions[0]);
    await client.skip(pending.id);
    expect(await asking).toEqual({ status: "no_answer", reason: "skipped" });
  });
});

describe("errors carry the API's status and reason", () => {
  it("bad input is a GatewayInputError listing every problem with its path", async () => {
    const gateway = await inProcessGateway();
    const client = createAskUserClient({ url: gateway.url });
    const input = {
      questions: [{ id: "Bad Id", header: "H", question: "Q?", options: [{ label: "Only" }] }],
    };
    const error = await client.ask(input).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(GatewayInputError);
    expect(error).toBeInstanceOf(AskUserError);
    const failure = error as GatewayInputError;
    expect(failure).toMatchObject({ status: 422, reason: "invalid_input", code: "invalid_input" });
    expect(failure.issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(["questions[0].id", "questions[0].options"]),
    );
    expect(failure.message).toContain("- questions[0].id: ");
    expect((await client.listPage()).questions).toEqual([]);
  });

  it("a second answer is a QuestionNotPendingError saying who answered", async () => {
    const gateway = await inProcessGateway();
    const alice = createAskUserClient({ url: gateway.url, name: "alice" });
    const question = await alice.create(deployInput);
    await alice.answer(question.id, { deploy_target: ["Staging"] });

    const error = await alice.answer(question.id, { deploy_target: ["Production"] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuestionNotPendingError);
    expect(error).toMatchObject({ status: 409, reason: "answered", code: "not_pending" });
    expect((error as Error).message).toContain("alice");
  });

  it("answers that fit no question are a GatewayInputError with paths", async () => {
    const gateway = await inProcessGateway();
    const client = createAskUserClient({ url: gateway.url });
    const question = await client.create(deployInput);
    const error = await client.answer(question.id, { nope: ["x"] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayInputError);
    expect(error).toMatchObject({ status: 422, reason: "invalid_answers" });
    expect((error as GatewayInputError).issues.length).toBeGreaterThan(0);
  });

  it("a missing or wrong token is a GatewayAuthError (401)", async () => {
    const gateway = await inProcessGateway({ ASK_USER_TOKEN: "a-token-of-enough-length" });
    const anonymous = createAskUserClient({ url: gateway.url });
    const wrong = createAskUserClient({ url: gateway.url, token: "not-the-right-token" });
    const right = createAskUserClient({ url: gateway.url, token: "a-token-of-enough-length" });

    await expect(anonymous.listPage()).rejects.toMatchObject({ status: 401, reason: "unauthorized" });
    await expect(wrong.create(deployInput)).rejects.toBeInstanceOf(GatewayAuthError);
    await expect(right.listPage()).resolves.toEqual({ questions: [] });
  });

  it("an unknown id is a QuestionNotFoundError, also for wait", async () => {
    const gateway = await inProcessGateway();
    const client = createAskUserClient({ url: gateway.url });
    await expect(client.get("nope")).rejects.toBeInstanceOf(QuestionNotFoundError);
    await expect(client.wait("nope")).rejects.toMatchObject({ status: 404, reason: "not_found" });
  });
});

describe("list", () => {
  it("iterates over every page through nextCursor, oldest first", async () => {
    const gateway = await inProcessGateway();
    const client = createAskUserClient({ url: gateway.url });
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await client.create(deployInput, { runId: "paged" })).id);
    await client.create(deployInput, { runId: "other" });

    const pages: string[][] = [];
    for await (const page of client.list({ runId: "paged", limit: 2 })) {
      pages.push(page.questions.map((q) => q.id));
    }

    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(created);
  });

  it("a bad limit is refused with its path", async () => {
    const gateway = await inProcessGateway();
    const client = createAskUserClient({ url: gateway.url });
    const error = await client.listPage({ limit: 0 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, reason: "invalid_query" });
    expect((error as GatewayInputError).issues.map((issue) => issue.path)).toEqual(["limit"]);
  });
});
