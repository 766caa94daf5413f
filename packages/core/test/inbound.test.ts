import { afterEach, describe, expect, it } from "vitest";
import { type AskUserBroker, type AskUserOptions, createAskUser } from "../src/broker/broker.ts";
import type { QuestionRecord } from "../src/model/types.ts";
import { encodeAction } from "../src/prompt/codec.ts";
import { createMemoryStore } from "../src/stores/memory.ts";
import { createFakeClock } from "../src/testing/fake-clock.ts";
import { deployInput, recordingChannel, recordingLogger, severalInput, T0 } from "./helpers.ts";

const room = { channel: "chat", conversation: "room-1" };
const alice = { channel: "chat", userId: "u-alice", displayName: "@alice" };
const brokers: AskUserBroker[] = [];
afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
});

function setup(overrides: Partial<AskUserOptions> = {}) {
  const clock = createFakeClock(T0);
  const channel = recordingChannel();
  const broker = createAskUser({
    store: createMemoryStore(),
    channels: [channel],
    clock,
    logger: recordingLogger(),
    ...overrides,
  });
  brokers.push(broker);
  return { clock, channel, broker };
}

const tap = (record: QuestionRecord, action: Parameters<typeof encodeAction>[1], userId = "u-alice") => ({
  ...room,
  userId,
  displayName: userId === "u-alice" ? "@alice" : `@${userId}`,
  data: encodeAction(record.tokens[0] ?? "", action),
});

describe("who may answer", () => {
  it("lets only the creator answer and tells others who it is for, leaving the question untouched", async () => {
    const { broker } = setup();
    const record = await broker.create(deployInput, { target: room, creator: alice });
    const outcome = await broker.handleAction(tap(record, { kind: "option", index: 0 }, "u-bob"));
    expect(outcome).toMatchObject({
      kind: "refused",
      reason: "not_allowed",
      text: "This question is for @alice.",
    });
    const after = await broker.get(record.id);
    expect(after?.status).toBe("pending");
    expect(after?.version).toBe(record.version);
  });

  it("lets nobody answer by chat in a group when there is no creator (SPEC §5)", async () => {
    const { broker, channel } = setup();
    channel.direct = false;
    const record = await broker.create(deployInput, { target: room });
    const tapped = await broker.handleAction(tap(record, { kind: "option", index: 0 }, "u-bob"));
    expect(tapped).toMatchObject({
      kind: "refused",
      reason: "not_allowed",
      text: expect.stringContaining("web panel"),
    });
    expect((await broker.handleReply({ ...room, userId: "u-bob", text: "1" })).kind).toBe("ignored");
    expect((await broker.get(record.id))?.status).toBe("pending");
    const open = await broker.create(deployInput, { target: room, answerers: "conversation" });
    expect((await broker.handleAction(tap(open, { kind: "option", index: 0 }, "u-bob"))).kind).toBe(
      "answered",
    );
  });

  it("lets anyone in a one-to-one chat answer when there is no creator, but nobody from elsewhere", async () => {
    const { broker } = setup();
    const record = await broker.create(deployInput, { target: room });
    const elsewhere = await broker.handleAction({
      ...tap(record, { kind: "skip" }, "u-bob"),
      conversation: "room-2",
    });
    expect(elsewhere).toMatchObject({ kind: "refused", reason: "not_allowed" });
    expect((await broker.handleAction(tap(record, { kind: "skip" }, "u-bob"))).kind).toBe("skipped");
  });

  it("lets a configured list of users answer", async () => {
    const { broker } = setup({ answerers: { userIds: ["u-carol"] } });
    const record = await broker.create(deployInput, { target: room, creator: alice });
    expect((await broker.handleAction(tap(record, { kind: "option", index: 1 }))).kind).toBe("refused");
    expect((await broker.handleAction(tap(record, { kind: "option", index: 1 }, "u-carol"))).kind).toBe(
      "answered",
    );
  });

  it("passes on text from people who may not answer, and refuses their replies to the question privately", async () => {
    const { broker, channel } = setup();
    const record = await broker.create(deployInput, { target: room, creator: alice });
    expect(await broker.handleReply({ ...room, userId: "u-bob", text: "lunch?" })).toEqual({
      kind: "ignored",
    });
    const messageId = (await broker.get(record.id))?.deliveries[0]?.messageId ?? "";
    const refused = await broker.handleReply({
      ...room,
      userId: "u-bob",
      text: "2",
      replyTo: messageId,
      messageId: "m9",
    });
    expect(refused).toMatchObject({ kind: "refused", text: "This question is for @alice." });
    expect(channel.notices).toEqual([
      expect.objectContaining({
        text: "This question is for @alice.",
        private: true,
        userId: "u-bob",
        replyTo: "m9",
      }),
    ]);
  });
});

describe("taps and replies", () => {
  it("refuses later taps with the precise reason", async () => {
    const { broker, clock } = setup();
    const skipped = await broker.create(deployInput, { target: room, creator: alice });
    await broker.handleAction(tap(skipped, { kind: "skip" }));
    expect(await broker.handleAction(tap(skipped, { kind: "option", index: 0 }))).toMatchObject({
      text: "This question was skipped.",
    });
    const cancelled = await broker.create(deployInput, { target: room, creator: alice });
    await broker.cancel(cancelled.id);
    expect(await broker.handleAction(tap(cancelled, { kind: "option", index: 0 }))).toMatchObject({
      text: "This question was cancelled.",
    });
    const expired = await broker.create(deployInput, { target: room, creator: alice });
    await clock.advance(900_000);
    expect(await broker.handleAction(tap(expired, { kind: "option", index: 0 }))).toMatchObject({
      reason: "expired",
      text: "This question expired at 14:20 UTC.",
    });
    expect(
      await broker.handleAction({ ...room, userId: "u-alice", data: "au1.AAAAAAAAAAAAAAAA.0" }),
    ).toMatchObject({
      reason: "unknown",
    });
    expect(await broker.handleAction({ ...room, userId: "u-alice", data: "someone-elses:button" })).toEqual({
      kind: "ignored",
    });
  });

  it("refuses in German when the user's locale is German", async () => {
    const { broker } = setup();
    const record = await broker.create(deployInput, { target: room, creator: alice });
    await broker.handleAction(tap(record, { kind: "option", index: 0 }));
    const outcome = await broker.handleAction({ ...tap(record, { kind: "skip" }), locale: "de-DE" });
    expect(outcome).toMatchObject({ text: "Diese Frage wurde bereits von @alice beantwortet." });
  });

  it("Other… waits for the tapper's next text, which becomes the answer as typed", async () => {
    const { broker } = setup();
    const record = await broker.create(deployInput, { target: room, creator: alice });
    const other = await broker.handleAction(tap(record, { kind: "other" }));
    expect(other).toMatchObject({
      kind: "awaiting_text",
      text: "Type your answer as a reply.",
      placeholder: "Your answer",
    });
    expect((await broker.get(record.id))?.status).toBe("pending");
    const reply = await broker.handleReply({ ...room, userId: "u-alice", text: "  Canary on 2 hosts  " });
    expect(reply).toMatchObject({ kind: "answered", text: "Recorded: Canary on 2 hosts" });
    expect(await broker.wait(record.id)).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Canary on 2 hosts"] } },
    });
  });

  it("takes a modal's free text with the Other… action", async () => {
    const { broker } = setup();
    const record = await broker.create(deployInput, { target: room, creator: alice });
    expect(await broker.handleAction({ ...tap(record, { kind: "other" }), text: "   " })).toMatchObject({
      kind: "invalid",
    });
    expect(
      await broker.handleAction({ ...tap(record, { kind: "other" }), text: "Both, staging first" }),
    ).toMatchObject({
      kind: "answered",
    });
    expect((await broker.get(record.id))?.answers).toEqual({ deploy_target: ["Both, staging first"] });
  });

  it("skips on a text 'skip' and keeps a question open on an out-of-range number", async () => {
    const { broker, channel } = setup();
    const record = await broker.create(deployInput, { target: room, creator: alice });
    const invalid = await broker.handleReply({ ...room, userId: "u-alice", text: "7" });
    expect(invalid.kind).toBe("invalid");
    expect(channel.notices[0]?.text).toContain("1 to 2");
    expect((await broker.get(record.id))?.status).toBe("pending");
    expect((await broker.handleReply({ ...room, userId: "u-alice", text: "skip" })).kind).toBe("skipped");
    expect(await broker.wait(record.id)).toEqual({ status: "no_answer", reason: "skipped" });
  });

  it("keeps a partial answer as a draft and asks for the rest (the text stepper)", async () => {
    const { broker, channel } = setup();
    const record = await broker.create(severalInput, { target: room, creator: alice });
    const first = await broker.handleReply({
      ...room,
      userId: "u-alice",
      text: "Env: prod",
      messageId: "m1",
    });
    expect(first.kind).toBe("partial");
    expect(channel.notices[0]?.text).toBe(
      "Recorded: Env: Prod.\nStill needed:\n2) Regions: Which regions?\n   1. EU\n   2. US\n   3. Asia",
    );
    expect((await broker.get(record.id))?.draft).toEqual({ env: ["Prod"] });
    // Replying to the follow-up message routes to the same question.
    const noticeId = (await broker.get(record.id))?.deliveries.find((d) => d.kind === "notice")?.messageId;
    const second = await broker.handleReply({
      ...room,
      userId: "u-alice",
      text: "3, 1",
      replyTo: noticeId ?? "",
    });
    expect(second).toMatchObject({ kind: "answered", text: "Recorded: Env: Prod · Regions: EU, Asia" });
    expect(await broker.wait(record.id)).toEqual({
      status: "answered",
      answers: { answers: { env: ["Prod"], regions: ["EU", "Asia"] } },
    });
  });

  it("does not guess between several pending questions but lists them; a reply to one routes there", async () => {
    const { broker, clock } = setup();
    const a = await broker.create(deployInput, { target: room, creator: alice });
    await clock.advance(1);
    const b = await broker.create(severalInput, { target: room, creator: alice });
    const outcome = await broker.handleReply({ ...room, userId: "u-alice", text: "1" });
    expect(outcome).toMatchObject({
      kind: "ambiguous",
      text: "Several questions are waiting:\n1) Deploy: Where should I deploy?\n2) Env: Which environment?\nReply to the message of the one you mean.",
    });
    const bMessage = (await broker.get(b.id))?.deliveries[0]?.messageId ?? "";
    expect(
      (await broker.handleReply({ ...room, userId: "u-alice", text: "1: 2\n2: EU", replyTo: bMessage })).kind,
    ).toBe("answered");
    expect((await broker.get(a.id))?.status).toBe("pending");
    expect((await broker.get(b.id))?.answers).toEqual({ env: ["Prod"], regions: ["EU"] });
  });
});

describe("operator surfaces", () => {
  it("answer() checks answers against the prompt and makes labels canonical", async () => {
    const { broker } = setup();
    const record = await broker.create(severalInput, { target: room });
    const bad = await broker.answer(
      record.id,
      { env: ["Staging", "Prod"], region: ["EU"] },
      { channel: "http", userId: "op" },
    );
    expect(bad).toMatchObject({ ok: false, reason: "invalid" });
    expect(bad.ok === false && bad.issues?.map((i) => i.path)).toEqual([
      "answers.region",
      "answers.env",
      "answers.regions",
    ]);
    const good = await broker.answer(
      record.id,
      { env: ["staging"], regions: ["asia", "eu", "Moon"] },
      { channel: "http", userId: "op" },
    );
    expect(good.ok && good.record.answers).toEqual({ env: ["Staging"], regions: ["EU", "Asia", "Moon"] });
    const again = await broker.answer(
      record.id,
      { env: ["Prod"], regions: ["US"] },
      { channel: "web", userId: "op2" },
    );
    expect(again).toMatchObject({
      ok: false,
      reason: "answered",
      message: "This question was already answered by op via HTTP API.",
    });
  });

  it("skip() and cancel() refuse an unknown id with a reason", async () => {
    const { broker } = setup();
    expect(await broker.skip("nope", { channel: "http", userId: "op" })).toMatchObject({
      ok: false,
      reason: "unknown",
    });
    expect(await broker.cancel("nope")).toMatchObject({ ok: false, reason: "unknown" });
    await expect(broker.wait("nope")).rejects.toMatchObject({ code: "unknown_question" });
  });

  it("keeps a question without a target on the operator surfaces only", async () => {
    const { broker, channel } = setup();
    const record = await broker.create(deployInput, { runId: "run-7" });
    expect(channel.delivered).toEqual([]);
    expect((await broker.list({ runId: "run-7", status: "pending" })).map((r) => r.id)).toEqual([record.id]);
  });
});
