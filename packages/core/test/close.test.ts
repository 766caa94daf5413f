import { afterEach, describe, expect, it } from "vitest";
import { type AskUserBroker, createAskUser } from "../src/broker/broker.ts";
import type { DeliverRequest } from "../src/ports/channel.ts";
import { createMemoryStore } from "../src/stores/memory.ts";
import { createFakeClock } from "../src/testing/fake-clock.ts";
import { deployInput, recordingChannel, recordingLogger, T0 } from "./helpers.ts";

const target = { channel: "chat", conversation: "room-1" };
const brokers: AskUserBroker[] = [];
afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
});

/** A channel whose deliveries wait until `release()`: a platform that is slow to answer a send. */
function heldChannel() {
  const channel = recordingChannel();
  const held: DeliverRequest[] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const deliver = channel.deliver.bind(channel);
  channel.deliver = async (request) => {
    held.push(request);
    await gate;
    return deliver(request);
  };
  return { channel, held, release: () => release() };
}

function setup() {
  const clock = createFakeClock(T0);
  const store = createMemoryStore();
  const { channel, held, release } = heldChannel();
  const broker = createAskUser({ store, channels: [channel], clock, logger: recordingLogger() });
  brokers.push(broker);
  return { clock, store, channel, held, release, broker };
}

/** Settles when `promise` does, or says it is still waiting after the microtasks and I/O of a few turns. */
async function settledSoon<T>(promise: Promise<T>): Promise<"resolved" | "rejected" | "waiting"> {
  let state: "resolved" | "rejected" | "waiting" = "waiting";
  promise.then(
    () => {
      state = "resolved";
    },
    () => {
      state = "rejected";
    },
  );
  for (let turn = 0; turn < 20 && state === "waiting"; turn++)
    await new Promise((resolve) => setImmediate(resolve));
  return state;
}

describe("close()", () => {
  it("rejects an ask() whose prompt is still being delivered, and keeps the question pending", async () => {
    const env = setup();
    const asked = env.broker.ask(deployInput, { target });
    asked.catch(() => undefined);
    for (let turn = 0; turn < 20 && env.held.length === 0; turn++) await env.clock.advance(0);
    expect(env.held).toHaveLength(1);

    const closing = env.broker.close();
    expect(await settledSoon(asked)).toBe("rejected");
    await expect(asked).rejects.toMatchObject({ code: "closed", name: "AskUserError" });
    // close() itself waits for the send in flight, so its message id is recorded (no orphan prompt).
    expect(await settledSoon(closing)).toBe("waiting");
    env.release();
    await closing;
    const [record] = await env.store.list();
    expect(record?.status).toBe("pending");
    expect(record?.deliveries.map((d) => d.kind)).toEqual(["prompt"]);
  });

  it("rejects a wait() that starts after close at once", async () => {
    const env = setup();
    env.release();
    const record = await env.broker.create(deployInput, { target });
    await env.broker.close();
    const waiting = env.broker.wait(record.id);
    expect(await settledSoon(waiting)).toBe("rejected");
    await expect(waiting).rejects.toMatchObject({ code: "closed" });
  });

  it("rejects a wait() that was reading its question when close came", async () => {
    const env = setup();
    env.release();
    const record = await env.broker.create(deployInput, { target });
    const waiting = env.broker.wait(record.id); // its store read is still on its way
    const closing = env.broker.close();
    expect(await settledSoon(waiting)).toBe("rejected");
    await closing;
  });

  it("still gives the result to a waiter whose question ended before close", async () => {
    const env = setup();
    env.release();
    const record = await env.broker.create(deployInput, { target });
    const waiting = env.broker.wait(record.id);
    await env.broker.skip(record.id, { channel: "web", userId: "op" });
    await env.broker.close();
    await expect(waiting).resolves.toEqual({ status: "no_answer", reason: "skipped" });
  });
});
