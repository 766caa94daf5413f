import { afterEach, describe, expect, it } from "vitest";
import { type AskUserBroker, type AskUserOptions, createAskUser } from "../src/broker/broker.ts";
import { LIVENESS_TTL_MS } from "../src/broker/liveness.ts";
import type { QuestionStore } from "../src/ports/store.ts";
import { createMemoryStore } from "../src/stores/memory.ts";
import { createFakeClock, type FakeClock } from "../src/testing/fake-clock.ts";
import { deployInput, type RecordingChannel, recordingChannel, recordingLogger, T0 } from "./helpers.ts";

const room = { channel: "chat", conversation: "room-1" };
const brokers: AskUserBroker[] = [];
afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
});

/** A broker with default claim and sweep times (30 s), so "at once" cannot come from a short claim. */
function start(
  store: QuestionStore,
  clock: FakeClock,
  channel: RecordingChannel,
  options: Partial<AskUserOptions>,
) {
  const broker = createAskUser({ store, channels: [channel], clock, logger: recordingLogger(), ...options });
  brokers.push(broker);
  return broker;
}

/** A channel that never answers: the process is killed while the platform call is on its way. */
function hangingChannel(what: "deliver" | "finalize"): RecordingChannel {
  const channel = recordingChannel();
  channel[what] = () => new Promise<never>(() => undefined);
  return channel;
}

/**
 * A process killed mid-delivery: its broker is abandoned without `close()` (a crash runs no clean-up), its
 * store left as the crash left it.
 */
async function killedWhileDelivering(store: QuestionStore, clock: FakeClock, instanceId: string) {
  const crashed = createAskUser({
    store,
    channels: [hangingChannel("deliver")],
    clock,
    logger: recordingLogger(),
    instanceId,
  });
  void crashed.create(deployInput, { target: room });
  for (let turn = 0; turn < 20 && (await store.list()).length === 0; turn++) await clock.advance(0);
  const [record] = await store.list();
  if (!record?.claim) throw new Error("the question was not stored with a claim");
  return record;
}

describe("repair after a restart", () => {
  it("delivers its own half-done prompt at start, not when the dead process's claim runs out", async () => {
    const clock = createFakeClock(T0);
    const store = createMemoryStore({ clock });
    const record = await killedWhileDelivering(store, clock, "gw-1");
    expect(record.claim?.until).toBe(T0 + 30_000);

    const channel = recordingChannel();
    const restarted = start(store, clock, channel, { instanceId: "gw-1" });
    await restarted.ready;
    await restarted.idle();
    expect(clock.now()).toBe(T0);
    expect(channel.delivered.map((d) => d.record.id)).toEqual([record.id]);
    expect((await store.get(record.id))?.deliveries.map((d) => d.messageId)).toEqual(["100"]);
  });

  it("edits its own ended prompt to the summary at start", async () => {
    const clock = createFakeClock(T0);
    const store = createMemoryStore({ clock });
    const crashed = createAskUser({
      store,
      channels: [hangingChannel("finalize")],
      clock,
      logger: recordingLogger(),
      instanceId: "gw-1",
    });
    const asked = await crashed.create(deployInput, { target: room });
    await crashed.answer(asked.id, { deploy_target: "Production" }, { channel: "web", userId: "op" });
    expect((await store.get(asked.id))?.claim?.by).toBe("gw-1"); // killed while editing

    const channel = recordingChannel();
    const restarted = start(store, clock, channel, { instanceId: "gw-1" });
    await restarted.ready;
    await restarted.idle();
    expect(channel.finalized.map((f) => [f.delivery.messageId, f.record.status])).toEqual([
      ["100", "answered"],
    ]);
    expect((await store.get(asked.id))?.deliveries[0]?.finalizedAt).toBe(T0);
  });

  it("leaves another instance's claim alone until it runs out (several instances keep the claim rules)", async () => {
    const clock = createFakeClock(T0);
    const store = createMemoryStore({ clock });
    const record = await killedWhileDelivering(store, clock, "gw-1");

    const channel = recordingChannel();
    const sibling = start(store, clock, channel, { instanceId: "gw-2" });
    await sibling.ready;
    await sibling.idle();
    expect(channel.delivered).toEqual([]);
    await clock.advance(29_999);
    await sibling.idle();
    expect(channel.delivered).toEqual([]);
    await clock.advance(1);
    await sibling.idle();
    expect(channel.delivered.map((d) => d.record.id)).toEqual([record.id]);
  });

  it("repairs a dead sibling's half-done prompt once its liveness lease is gone, long before its claim runs out", async () => {
    const clock = createFakeClock(T0);
    const store = createMemoryStore({ clock });
    // The crashed process's view of the store: once it is dead, nothing it does reaches the store.
    let dead = false;
    const itsStore = new Proxy(store, {
      get(target, key: keyof QuestionStore) {
        const value = target[key];
        if (typeof value !== "function") return value;
        return (...args: unknown[]) =>
          dead ? Promise.reject(new Error("killed")) : (value as (...a: unknown[]) => unknown)(...args);
      },
    });
    const record = await killedWhileDelivering(itsStore, clock, "gw-1");
    dead = true;

    const channel = recordingChannel();
    const sibling = start(store, clock, channel, { instanceId: "gw-2" });
    await sibling.ready;
    await sibling.idle();
    expect(channel.delivered).toEqual([]); // its owner may still be alive: its lease holds
    for (let second = 1; second <= 10 && channel.delivered.length === 0; second++) {
      await clock.advance(1_000);
      await sibling.idle();
    }
    expect(channel.delivered.map((d) => d.record.id)).toEqual([record.id]);
    expect(clock.now() - T0).toBeLessThanOrEqual(LIVENESS_TTL_MS + LIVENESS_TTL_MS / 2);
    expect((await store.get(record.id))?.claim).toBeUndefined();
  });

  it("lets a sibling take over at once what a broker that closed still claimed", async () => {
    const clock = createFakeClock(T0);
    const store = createMemoryStore({ clock });
    const failing = recordingChannel();
    failing.finalize = () => Promise.reject(new Error("Slack is down"));
    const first = start(store, clock, failing, { instanceId: "gw-1" });
    const asked = await first.create(deployInput, { target: room });
    await first.answer(asked.id, { deploy_target: "Production" }, { channel: "web", userId: "op" });
    await first.idle();
    expect((await store.get(asked.id))?.claim).toMatchObject({ by: "gw-1", until: T0 + 2_000 }); // its retry
    await first.close();

    const channel = recordingChannel();
    const sibling = start(store, clock, channel, { instanceId: "gw-2" });
    await sibling.ready;
    await sibling.idle();
    expect(channel.finalized.map((f) => f.record.id)).toEqual([asked.id]);
    expect(clock.now()).toBe(T0);
  });

  it("never takes over what the same start of the broker is still delivering", async () => {
    const clock = createFakeClock(T0);
    const store = createMemoryStore({ clock });
    const channel = recordingChannel();
    let release: () => void = () => undefined;
    const sent = new Promise<void>((resolve) => {
      release = resolve;
    });
    const deliver = channel.deliver.bind(channel);
    channel.deliver = async (request) => {
      await sent;
      return deliver(request);
    };
    const broker = start(store, clock, channel, { instanceId: "gw-1", repairIntervalMs: 1_000 });
    const created = broker.create(deployInput, { target: room });
    await clock.advance(5_000); // several sweeps while the send is on its way
    const [record] = await store.list();
    expect(record?.claim?.by).toBe("gw-1");
    expect(record?.version).toBe(1); // nobody claimed it again
    release();
    await created;
    expect(channel.delivered).toHaveLength(1);
  });
});
