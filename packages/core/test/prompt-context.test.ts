import { afterEach, describe, expect, it } from "vitest";
import { type AskUserBroker, createAskUser } from "../src/broker/broker.ts";
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

function setup(direct: boolean) {
  const clock = createFakeClock(T0);
  const channel = recordingChannel();
  channel.direct = direct;
  const broker = createAskUser({
    store: createMemoryStore(),
    channels: [channel],
    clock,
    logger: recordingLogger(),
  });
  brokers.push(broker);
  return { clock, channel, broker };
}

describe("whom a prompt is for (SPEC §6)", () => {
  it("says 'For @alice' at the top of a prompt in a shared conversation, and tells the channel", async () => {
    const { channel, broker } = setup(false);
    await broker.create(deployInput, { target: room, creator: alice });
    const delivered = channel.delivered[0];
    expect(delivered?.forName).toBe("@alice");
    expect(delivered?.text.split("\n")[0]).toBe("For @alice");
  });

  it("says nothing in a one-to-one chat, without a creator's name, or when anyone may answer", async () => {
    const { channel, broker } = setup(true);
    await broker.create(deployInput, { target: room, creator: alice });
    const shared = setup(false);
    await shared.broker.create(deployInput, { target: room, creator: { channel: "chat", userId: "u-x" } });
    await shared.broker.create(deployInput, { target: room, creator: alice, answerers: "conversation" });
    for (const delivered of [...channel.delivered, ...shared.channel.delivered]) {
      expect(delivered.forName).toBeUndefined();
      expect(delivered.text).not.toContain("For ");
    }
  });
});

describe("local times and quieter confirmations", () => {
  it("shows an expiry refusal in the reader's time zone where the channel can (formatTime)", async () => {
    const { clock, channel, broker } = setup(true);
    channel.formatTime = (epochMs) => `<t:${Math.floor(epochMs / 1000)}:t>`;
    const record = await broker.create(
      { ...deployInput, timeoutSeconds: 60 },
      { target: room, creator: alice },
    );
    await clock.advance(61_000);
    const tap = { ...room, userId: "u-alice", data: encodeAction(record.tokens[0] ?? "", { kind: "skip" }) };
    const outcome = await broker.handleAction(tap);
    expect(outcome).toMatchObject({
      kind: "refused",
      reason: "expired",
      text: `This question expired at <t:${Math.floor(record.expiresAt / 1000)}:t>.`,
    });
    const reply = await broker.handleReply({ ...room, userId: "u-alice", text: "1", replyTo: "100" });
    expect(reply.kind).toBe("refused");
    expect(channel.notices.at(-1)?.text).toContain("<t:");
  });

  it("says what each notice is, so a channel can confirm quietly", async () => {
    const { channel, broker } = setup(true);
    await broker.create(severalInput, { target: room, creator: alice });
    await broker.handleReply({ ...room, userId: "u-alice", text: "1: Prod" });
    await broker.handleReply({ ...room, userId: "u-alice", text: "2: 9" });
    await broker.handleReply({ ...room, userId: "u-alice", text: "2: EU" });
    await broker.handleReply({ ...room, userId: "u-bob", text: "2: EU", replyTo: "100" });
    expect(channel.notices.map((n) => n.purpose)).toEqual(["partial", "invalid", "answered", "refused"]);
    expect(channel.notices[0]?.text).toBe(
      "Recorded: Env: Prod.\nStill needed:\n2) Regions: Which regions?\n   1. EU\n   2. US\n   3. Asia",
    );
  });

  it("answers in the question's locale when the platform gives the person's none", async () => {
    const { channel, broker } = setup(true);
    await broker.create(severalInput, { target: room, creator: alice, locale: "de" });
    await broker.handleReply({ ...room, userId: "u-alice", text: "1: Prod" });
    expect(channel.notices.at(-1)).toMatchObject({ locale: "de" });
    expect(channel.notices.at(-1)?.text).toMatch(/^Erfasst: Env: Prod\.\nNoch offen:/);
    await broker.handleReply({ ...room, userId: "u-alice", text: "2: EU", locale: "en" });
    expect(channel.notices.at(-1)?.text).toBe("Recorded: Env: Prod · Regions: EU");
  });
});
