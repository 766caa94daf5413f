import { describe, expect, it } from "vitest";
import { createAskUser } from "../src/broker/broker.ts";
import { createTextChannel } from "../src/channels/text.ts";
import { encodeAction } from "../src/prompt/codec.ts";
import { createMemoryStore } from "../src/stores/memory.ts";
import { createFakeClock } from "../src/testing/fake-clock.ts";
import { deployInput, recordingChannel, recordingLogger, T0 } from "./helpers.ts";

const room = { channel: "chat", conversation: "room-1" };

describe("restart and several instances", () => {
  it("a new broker expires overdue questions at start and edits their messages", async () => {
    const clock = createFakeClock(T0);
    const store = createMemoryStore();
    const first = createAskUser({ store, channels: [recordingChannel()], clock, logger: recordingLogger() });
    const overdue = await first.create({ ...deployInput, timeoutSeconds: 60 }, { target: room });
    const later = await first.create(deployInput, { target: room });
    await first.close(); // the process stops
    clock.jump(120_000); // and is down for two minutes
    const channel = recordingChannel();
    const second = createAskUser({ store, channels: [channel], clock, logger: recordingLogger() });
    await second.ready;
    await second.idle();
    expect((await store.get(overdue.id))?.status).toBe("expired");
    expect(channel.finalized.map((f) => [f.delivery.messageId, f.summary])).toEqual([
      [overdue.deliveries[0]?.messageId, "⌛ Deploy — expired"],
    ]);
    // The other question is still answerable with its old buttons, and still has its deadline.
    expect((await store.get(later.id))?.status).toBe("pending");
    await clock.advance(900_000 - 120_000 - 1);
    expect((await store.get(later.id))?.status).toBe("pending");
    const tapped = await second.handleAction({
      ...room,
      userId: "u1",
      data: encodeAction(later.tokens[0] ?? "", { kind: "option", index: 1 }),
    });
    expect(tapped.kind).toBe("answered");
    expect(await second.wait(later.id)).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    await second.close();
  });

  it("re-arms deadlines after a restart", async () => {
    const clock = createFakeClock(T0);
    const store = createMemoryStore();
    const first = createAskUser({ store, channels: [], clock, logger: recordingLogger() });
    const record = await first.create(deployInput, {});
    await first.close();
    const second = createAskUser({ store, channels: [], clock, logger: recordingLogger() });
    await second.ready;
    const waiting = second.wait(record.id);
    await clock.advance(900_000);
    expect(await waiting).toEqual({ status: "no_answer", reason: "expired" });
    await second.close();
  });

  it("an answer taken by one instance wakes the ask() waiting in another over a shared store", async () => {
    const clock = createFakeClock(T0);
    const store = createMemoryStore();
    const a = createAskUser({ store, channels: [recordingChannel()], clock, logger: recordingLogger() });
    const b = createAskUser({ store, channels: [recordingChannel()], clock, logger: recordingLogger() });
    const pending = a.ask(deployInput, { target: room });
    await clock.advance(0);
    const [record] = await b.list({ status: "pending" });
    expect(await b.handleReply({ ...room, userId: "u1", text: "production" })).toMatchObject({
      kind: "answered",
    });
    expect(await pending).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(record).toBeDefined();
    await a.close();
    await b.close();
  });
});

describe("createTextChannel", () => {
  it("works end to end over any text transport: prompt, reply, confirmation, summary", async () => {
    const sent: Array<{ to: string; text: string; replyTo?: string }> = [];
    const sms = createTextChannel({
      name: "sms",
      async send(to, text, options) {
        sent.push({ to, text, ...options });
        return sent.length;
      },
    });
    const clock = createFakeClock(T0);
    const broker = createAskUser({
      store: createMemoryStore(),
      channels: [sms],
      clock,
      logger: recordingLogger(),
    });
    const result = broker.ask(deployInput, { target: { channel: "sms", conversation: "+49151" } });
    await clock.advance(0);
    expect(sent[0]?.to).toBe("+49151");
    expect(sent[0]?.text).toContain("1. Staging (Recommended) — Safe");
    await broker.handleReply({
      channel: "sms",
      conversation: "+49151",
      userId: "+49151",
      text: "2",
      messageId: "in-1",
    });
    expect(await result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    await broker.idle();
    // The reply was confirmed; no second summary message is sent for an answer given in the same chat.
    expect(sent.slice(1)).toEqual([{ to: "+49151", text: "Recorded: Production", replyTo: "in-1" }]);
    await broker.close();
  });

  it("edits the prompt to the summary when the transport can edit, and announces resolutions from elsewhere", async () => {
    const edits: string[] = [];
    const sent: string[] = [];
    const irc = createTextChannel({
      name: "irc",
      send: async (_to, text) => sent.push(text),
      edit: async (_to, id, text) => void edits.push(`${id}:${text}`),
    });
    const broker = createAskUser({ store: createMemoryStore(), channels: [irc], logger: recordingLogger() });
    const record = await broker.create(deployInput, { target: { channel: "irc", conversation: "#ops" } });
    await broker.answer(
      record.id,
      { deploy_target: ["Staging"] },
      { channel: "web", userId: "op", displayName: "Operator" },
    );
    await broker.idle();
    expect(edits).toEqual(["1:✅ Deploy: Staging (Recommended) — Operator via the web panel"]);
    await broker.close();
  });
});
