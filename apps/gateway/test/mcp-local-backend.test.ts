import { GatewayInputError, QuestionNotFoundError, QuestionNotPendingError } from "@ask-user/client";
import { createAskUser, createMemoryStore } from "@ask-user/core";
import { afterEach, describe, expect, it } from "vitest";
import { createLocalBackend } from "../src/local-backend.ts";
import { deployInput } from "./harness.ts";

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const input = { ...deployInput, timeoutSeconds: 600 };

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function localBackend() {
  const broker = createAskUser({ store: createMemoryStore(), channels: [], logger: silent });
  closers.push(() => broker.close());
  const backend = createLocalBackend(broker, { defaultTarget: undefined, channels: new Set(["text"]) });
  return { broker, backend };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("the in-process backend answers as the HTTP API, with the client's errors", () => {
  it("takes the client's create(input, { target, runId }) and refuses bad input with a 422 and its issues", async () => {
    const { backend } = localBackend();
    const question = await backend.create(input, { target: "text:ops", runId: "run-1" });
    // Undeliverable (this broker runs no channel), but asked where and for the run the options say.
    expect(question).toMatchObject({
      target: { channel: "text", conversation: "ops" },
      runId: "run-1",
    });
    const unknownChannel = await failure(backend.create(input, { target: "telegram:42" }));
    expect(unknownChannel).toBeInstanceOf(GatewayInputError);
    expect(unknownChannel).toMatchObject({ status: 422, code: "invalid_input" });
    expect((unknownChannel as GatewayInputError).issues.map((issue) => issue.path)).toEqual([
      "target.channel",
    ]);
    const badInput = await failure(backend.create({ questions: [] }));
    expect(badInput).toBeInstanceOf(GatewayInputError);
    expect(badInput).toMatchObject({ status: 422, reason: "invalid_input" });
    expect((badInput as GatewayInputError).issues[0]?.path).toBe("questions");
  });

  it("cancel of an ended question is a 409 with what it became, unless ifPending; an unknown id is a 404", async () => {
    const { broker, backend } = localBackend();
    const question = await backend.create(input);
    await broker.answer(question.id, { deploy_target: ["Staging"] }, { channel: "web", userId: "alice" });
    const refused = await failure(backend.cancel(question.id));
    expect(refused).toBeInstanceOf(QuestionNotPendingError);
    expect(refused).toMatchObject({ status: 409, reason: "answered", code: "not_pending" });
    expect((await backend.cancel(question.id, { ifPending: true })).result).toMatchObject({
      status: "answered",
    });
    const pending = await backend.create(input);
    expect((await backend.cancel(pending.id)).status).toBe("cancelled");
    const unknown = await failure(backend.cancel("nope", { ifPending: true }));
    expect(unknown).toBeInstanceOf(QuestionNotFoundError);
    expect(unknown).toMatchObject({ status: 404, reason: "not_found" });
  });

  it("lists pages with the client's filter (status, runId) and refuses a cursor it did not make", async () => {
    const { broker, backend } = localBackend();
    const a = await backend.create(input, { runId: "run-a" });
    const b = await backend.create(input, { runId: "run-b" });
    const c = await backend.create(input, { runId: "run-a" });
    await broker.skip(c.id, { channel: "web", userId: "bob" });
    // Oldest first; questions made in the same millisecond are in id order, so compare as sets.
    const ids = async (filter: Parameters<NonNullable<typeof backend.listPage>>[0]) =>
      ((await backend.listPage?.(filter))?.questions ?? []).map((q) => q.id).sort();
    expect(await ids({ runId: "run-a" })).toEqual([a.id, c.id].sort());
    expect(await ids({ status: "pending" })).toEqual([a.id, b.id].sort());
    expect(await ids({ status: "pending", runId: "run-a" })).toEqual([a.id]);
    const first = await backend.listPage?.({ limit: 2 });
    expect(first?.questions).toHaveLength(2);
    const rest = await ids({ limit: 2, cursor: first?.nextCursor ?? "" });
    expect([...(first?.questions.map((q) => q.id) ?? []), ...rest].sort()).toEqual([a.id, b.id, c.id].sort());
    const bad = await failure(backend.listPage?.({ cursor: "nope" }) ?? Promise.resolve());
    expect(bad).toBeInstanceOf(GatewayInputError);
    expect(bad).toMatchObject({ status: 400, reason: "invalid_query", issues: [{ path: "cursor" }] });
  });
});
