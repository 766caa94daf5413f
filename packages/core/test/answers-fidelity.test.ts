import { afterEach, describe, expect, it } from "vitest";
import { type AskUserBroker, type AskUserOptions, createAskUser } from "../src/broker/broker.ts";
import type { QuestionRecord } from "../src/model/types.ts";
import { encodeAction } from "../src/prompt/codec.ts";
import { createMemoryStore } from "../src/stores/memory.ts";
import { createFakeClock } from "../src/testing/fake-clock.ts";
import { deployInput, recordingChannel, recordingLogger, T0 } from "./helpers.ts";

const room = { channel: "chat", conversation: "room-1" };
const brokers: AskUserBroker[] = [];
afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
});

function setup(overrides: Partial<AskUserOptions> = {}) {
  const clock = createFakeClock(T0);
  const channel = recordingChannel();
  const store = createMemoryStore();
  const options = { store, channels: [channel], clock, logger: recordingLogger(), ...overrides };
  const broker = createAskUser(options);
  brokers.push(broker);
  return { clock, channel, broker, store, options };
}

const threeInput = {
  questions: ["target", "region", "size"].map((id, index) => ({
    id,
    header: ["Target", "Region", "Size"][index] ?? id,
    question: `Which ${id}?`,
    options: [{ label: `${id}-a` }, { label: `${id}-b` }, { label: `${id}-c` }],
  })),
};

const reply = (userId: string, text: string, extra: { replyTo?: string } = {}) => ({
  ...room,
  userId,
  displayName: `@${userId}`,
  text,
  ...extra,
});

describe("concurrent partial answers", () => {
  it("keeps both of two partial answers given at the same moment, on one broker", async () => {
    const { broker } = setup({ answerers: "conversation" });
    const record = await broker.create(threeInput, { target: room });
    const [first, second] = await Promise.all([
      broker.handleReply(reply("alice", "1: 1")),
      broker.handleReply(reply("bob", "2: 2")),
    ]);
    expect(first.kind).toBe("partial");
    expect(second.kind).toBe("partial");
    expect((await broker.get(record.id))?.draft).toEqual({ target: ["target-a"], region: ["region-b"] });
    const done = await broker.handleReply(reply("carol", "3: 3"));
    expect(done.kind).toBe("answered");
    expect(await broker.wait(record.id)).toEqual({
      status: "answered",
      answers: { answers: { target: ["target-a"], region: ["region-b"], size: ["size-c"] } },
    });
  });

  it("keeps a tap and a text reply to different questions given at the same moment on two brokers", async () => {
    const { broker, options } = setup({ answerers: "conversation" });
    const other = createAskUser(options);
    brokers.push(other);
    const record = await broker.create(threeInput, { target: room });
    const token = record.tokens[2] ?? "";
    await Promise.all([
      other.handleAction({ ...room, userId: "bob", data: encodeAction(token, { kind: "option", index: 0 }) }),
      broker.handleReply(reply("alice", "Target: target-b")),
    ]);
    expect((await broker.get(record.id))?.draft).toEqual({ target: ["target-b"], size: ["size-a"] });
  });

  it("fills plain lines into the questions still open at the moment of writing", async () => {
    const { broker } = setup({ answerers: "conversation" });
    const record = await broker.create(threeInput, { target: room });
    await Promise.all([
      broker.handleReply(reply("alice", "1: 1")),
      broker.handleReply(reply("bob", "region-c")),
    ]);
    expect((await broker.get(record.id))?.draft).toEqual({ target: ["target-a"], region: ["region-c"] });
  });
});

describe("Other… in a modal", () => {
  it("stores nothing when the modal opens, so a later text reply is read by the normal rules", async () => {
    const { broker } = setup();
    const record = await broker.create(deployInput, { target: room });
    const data = encodeAction(record.tokens[0] ?? "", { kind: "other" });
    const opened = await broker.handleAction({ ...room, userId: "alice", data, opensModal: true });
    expect(opened.kind).toBe("awaiting_text");
    expect((await broker.get(record.id))?.version).toBe(record.version);
    const outcome = await broker.handleReply(reply("alice", "2"));
    expect(outcome).toMatchObject({ kind: "answered", text: "Recorded: Production" });
  });

  it("refuses to open the modal on an ended question", async () => {
    const { broker } = setup();
    const record = await broker.create(deployInput, { target: room });
    await broker.cancel(record.id);
    const data = encodeAction(record.tokens[0] ?? "", { kind: "other" });
    const opened = await broker.handleAction({ ...room, userId: "alice", data, opensModal: true });
    expect(opened).toMatchObject({ kind: "refused", reason: "cancelled" });
  });

  it("still takes the next reply as free text after a force-reply Other… (no modal)", async () => {
    const { broker } = setup();
    const record = await broker.create(deployInput, { target: room });
    const data = encodeAction(record.tokens[0] ?? "", { kind: "other" });
    await broker.handleAction({ ...room, userId: "alice", data });
    expect(await broker.handleReply(reply("alice", "2"))).toMatchObject({ kind: "answered" });
    expect((await broker.get(record.id))?.answers).toEqual({ deploy_target: ["2"] });
  });
});

describe("messages sent for a question", () => {
  it("routes a reply to a remembered message to its question, even with several pending", async () => {
    const { broker } = setup();
    const first = await broker.create(deployInput, { target: room });
    const second = await broker.create(deployInput, { target: room });
    await broker.rememberMessage(first.id, { ...room, messageId: "force-reply-1" });
    const outcome = await broker.handleReply(reply("alice", "my own", { replyTo: "force-reply-1" }));
    expect(outcome).toMatchObject({ kind: "answered" });
    expect((await broker.get(first.id))?.answers).toEqual({ deploy_target: ["my own"] });
    expect((await broker.get(second.id))?.status).toBe("pending");
  });

  it("tells why when the replied-to question has ended, and never gives the reply to another one", async () => {
    const { broker } = setup();
    const first = await broker.create(deployInput, { target: room });
    await broker.rememberMessage(first.id, { ...room, messageId: "force-reply-1" });
    await broker.cancel(first.id);
    const next = await broker.create(deployInput, { target: room });
    const outcome = await broker.handleReply(reply("alice", "my own", { replyTo: "force-reply-1" }));
    expect(outcome).toMatchObject({ kind: "refused", reason: "cancelled" });
    expect((await broker.get(next.id))?.status).toBe("pending");
    expect((await broker.get(next.id))?.version).toBe(next.version + 0);
  });

  it("remembers every confirmation it sends, so a reply to a confirmation routes back", async () => {
    const { broker, channel } = setup();
    const record = await broker.create(threeInput, { target: room, answerers: "conversation" });
    await broker.create(deployInput, { target: room });
    await broker.handleReply(reply("alice", "1: 1", { replyTo: record.deliveries[0]?.messageId ?? "" }));
    const stored = (await broker.get(record.id)) as QuestionRecord;
    const notice = stored.deliveries.find((d) => d.kind === "notice");
    expect(notice).toBeDefined();
    expect(channel.messages.get(notice?.messageId ?? "")).toContain("Recorded: Target: target-a");
    const outcome = await broker.handleReply(reply("alice", "2: 1", { replyTo: notice?.messageId ?? "" }));
    expect(outcome).toMatchObject({ kind: "partial", record: { id: record.id } });
  });
});

describe("names", () => {
  it("names the creator the way their platform shows names, never by raw id", async () => {
    const channel = { ...recordingChannel(), displayName: async (userId: string) => `<@${userId}>` };
    const { broker } = setup({ channels: [channel] });
    const record = await broker.create(deployInput, {
      target: room,
      creator: { channel: "chat", userId: "1300000000000000001" },
    });
    expect(record.creator?.displayName).toBe("<@1300000000000000001>");
    const data = encodeAction(record.tokens[0] ?? "", { kind: "option", index: 0 });
    const outcome = await broker.handleAction({ ...room, userId: "bob", data });
    expect(outcome).toMatchObject({ text: "This question is for <@1300000000000000001>." });
  });

  it("says 'someone else' when the platform cannot name the creator", async () => {
    const channel = {
      ...recordingChannel(),
      displayName: async () => {
        throw new Error("getChat: chat not found");
      },
    };
    const { broker } = setup({ channels: [channel] });
    const record = await broker.create(deployInput, {
      target: room,
      creator: { channel: "chat", userId: "U0ALICE" },
    });
    const data = encodeAction(record.tokens[0] ?? "", { kind: "option", index: 0 });
    const outcome = await broker.handleAction({ ...room, userId: "bob", data, locale: "de" });
    expect(outcome).toMatchObject({ text: "Diese Frage ist für jemand anderen." });
    expect(JSON.stringify(outcome)).not.toContain("This question is for U0ALICE");
  });
});

describe("summaries", () => {
  it("keeps the attribution of a 3000-character free-text answer and stays within the limit", async () => {
    const { broker, channel } = setup();
    const record = await broker.create(deployInput, { target: room });
    const long = Array.from({ length: 400 }, (_, i) => `step${i}`)
      .join(" ")
      .slice(0, 3000);
    const data = encodeAction(record.tokens[0] ?? "", { kind: "other" });
    await broker.handleAction({ ...room, userId: "alice", displayName: "@alice", data, text: long });
    await broker.idle();
    const summary = channel.finalized[0]?.summary ?? "";
    expect(summary.endsWith("… — @alice")).toBe(true);
    expect(summary.startsWith("✅ Deploy: step0 step1")).toBe(true);
    expect(summary.length).toBeLessThanOrEqual(900);
  });
});
