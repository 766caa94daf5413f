/**
 * `Channel.ready` (a channel still connecting shows placeholder capabilities until it is ready) and
 * `DeliverRequest.resend` (repair tells the channel that an earlier attempt may have reached the platform).
 */
import { afterEach, describe, expect, it } from "vitest";
import { type AskUserBroker, createAskUser } from "../src/broker/broker.ts";
import type { ChannelCapabilities } from "../src/ports/channel.ts";
import { createMemoryStore } from "../src/stores/memory.ts";
import { createFakeClock } from "../src/testing/fake-clock.ts";
import { sampleRecord } from "../src/testing/records.ts";
import { deployInput, recordingChannel, recordingLogger, T0 } from "./helpers.ts";

const room = { channel: "chat", conversation: "room-1" };
const brokers: AskUserBroker[] = [];
afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
});

/** A recording channel that shows no buttons until `connect()`; `ready()` resolves then. */
function connectingChannel() {
  const placeholder: ChannelCapabilities = { buttons: false, edit: false, privateNotices: false };
  const own: ChannelCapabilities = { buttons: true, edit: true, privateNotices: true, maxButtons: 25 };
  let connected = false;
  let resolveReady: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    resolveReady = resolve;
  });
  const connect = () => {
    connected = true;
    resolveReady();
  };
  const channel = Object.assign(recordingChannel(), { readyCalls: 0 });
  Object.defineProperty(channel, "capabilities", { get: () => (connected ? own : placeholder) });
  channel.ready = () => {
    channel.readyCalls += 1;
    return done;
  };
  return { channel, connect };
}

function broker(channel: ReturnType<typeof recordingChannel>, store = createMemoryStore()) {
  const created = createAskUser({
    store,
    channels: [channel],
    clock: createFakeClock(T0),
    logger: recordingLogger(),
    claimMs: 10_000,
    repairIntervalMs: 60_000,
  });
  brokers.push(created);
  return created;
}

describe("a channel that gets ready after the question is asked", () => {
  it("delivers the prompt with buttons once the channel is ready, not with the placeholder's text", async () => {
    const { channel, connect } = connectingChannel();
    const askUser = broker(channel);
    const created = askUser.create(deployInput, { target: room });
    await expect.poll(() => channel.readyCalls, { timeout: 2_000, interval: 5 }).toBe(1);
    expect(channel.delivered).toEqual([]); // nothing goes out before the channel is ready
    connect();
    const record = await created;
    expect(record.status).toBe("pending");
    expect(channel.delivered.map((d) => d.buttons)).toEqual([true]);
  });

  it("ends the question undeliverable, with the reason, when the channel's ready rejects", async () => {
    const channel = recordingChannel();
    channel.ready = () => Promise.reject(new Error("chat is not connected yet: token refused"));
    const record = await broker(channel).create(deployInput, { target: room });
    expect(record.status).toBe("undeliverable");
    expect(record.error).toContain("token refused");
    expect(channel.delivered).toEqual([]);
  });
});

describe("resend", () => {
  it("is not set on a question's first delivery", async () => {
    const channel = recordingChannel();
    await broker(channel).create(deployInput, { target: room });
    expect(channel.delivered).toHaveLength(1);
    expect(channel.delivered[0]?.resend).toBeUndefined();
  });

  it("is set when repair delivers a question stored before (an earlier attempt may have reached the platform)", async () => {
    const store = createMemoryStore();
    const stored = sampleRecord({
      target: room,
      createdAt: T0 - 5_000,
      expiresAt: T0 + 900_000,
      claim: { by: "dead", until: T0 - 1 },
    });
    await store.create(stored);
    const channel = recordingChannel();
    const askUser = broker(channel, store);
    await askUser.ready;
    await askUser.idle();
    expect(channel.delivered.map((d) => [d.record.id, d.resend])).toEqual([[stored.id, true]]);
  });
});
