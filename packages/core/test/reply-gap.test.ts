import { afterEach, describe, expect, it } from "vitest";
import { type AskUserBroker, createAskUser } from "../src/broker/broker.ts";
import { REPLY_GAP_WAIT_MS } from "../src/broker/reply-gap.ts";
import { createMemoryStore } from "../src/stores/memory.ts";
import { createFakeClock } from "../src/testing/fake-clock.ts";
import { deployInput, recordingChannel, recordingLogger, T0 } from "./helpers.ts";

const target = { channel: "chat", conversation: "room-1" };
const alice = { channel: "chat", userId: "u-alice", displayName: "@alice" };
const brokers: AskUserBroker[] = [];
afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
});

/** A broker whose channel can hold its next send open: the platform has the message, we have no id yet. */
function setup() {
  const clock = createFakeClock(T0);
  const store = createMemoryStore();
  const channel = recordingChannel();
  let gate: Promise<void> | undefined;
  const deliver = channel.deliver.bind(channel);
  channel.deliver = async (request) => {
    await gate;
    return deliver(request);
  };
  const broker = createAskUser({ store, channels: [channel], clock, logger: recordingLogger() });
  brokers.push(broker);
  const hold = () => {
    let release: () => void = () => undefined;
    gate = new Promise((resolve) => {
      release = resolve;
    });
    return () => {
      gate = undefined;
      release();
    };
  };
  return { clock, store, channel, broker, hold };
}

/** Two questions for alice in one room; the second one's send is held open (its message will be "101"). */
async function twoQuestionsSecondInFlight(env: ReturnType<typeof setup>) {
  const first = await env.broker.create(deployInput, { target, creator: alice });
  const release = env.hold();
  const second = env.broker.create(deployInput, { target, creator: alice });
  for (let turn = 0; turn < 20 && (await env.store.list()).length < 2; turn++) await env.clock.advance(0);
  return { first, second, release };
}

describe("a reply in the moment between a prompt's send and its recording", () => {
  it("goes to the question whose prompt it replies to, once that delivery is recorded", async () => {
    const env = setup();
    const { first, second, release } = await twoQuestionsSecondInFlight(env);
    expect(first.deliveries[0]?.messageId).toBe("100");

    const replied = env.broker.handleReply({ ...target, userId: "u-alice", text: "2", replyTo: "101" });
    await env.clock.advance(0);
    release();
    const outcome = await replied;
    const record = await second;
    expect(outcome).toMatchObject({ kind: "answered", record: { id: record.id } });
    expect((await env.store.get(first.id))?.status).toBe("pending");
  });

  it("goes to the question whose delivery was recorded between the look by message and the look for sends", async () => {
    const env = setup();
    const { second, release } = await twoQuestionsSecondInFlight(env);
    // The store sees the delivery recorded just after the look by message missed it (the writer
    // committed in between): the pending questions then show no send in flight.
    const findByMessage = env.store.findByMessage.bind(env.store);
    let looks = 0;
    env.store.findByMessage = async (...args) => {
      const found = await findByMessage(...args);
      if (looks++ === 0) {
        release();
        for (let turn = 0; turn < 20; turn++) {
          const pending = await env.store.list({ status: "pending" });
          if (pending.every((r) => r.deliveries.some((d) => d.kind === "prompt"))) break;
          await env.clock.advance(0);
        }
      }
      return found;
    };
    const outcome = await env.broker.handleReply({ ...target, userId: "u-alice", text: "2", replyTo: "101" });
    expect(outcome).toMatchObject({ kind: "answered", record: { id: (await second).id } });
    expect(looks).toBe(2);
  });

  it("is read by the other rules when the delivery is still not recorded after the wait", async () => {
    const env = setup();
    const { release } = await twoQuestionsSecondInFlight(env);
    const replied = env.broker.handleReply({ ...target, userId: "u-alice", text: "2", replyTo: "555" });
    let done = false;
    void replied.then(() => {
      done = true;
    });
    await env.clock.advance(REPLY_GAP_WAIT_MS - 1);
    expect(done).toBe(false);
    await env.clock.advance(1);
    expect(await replied).toMatchObject({ kind: "ambiguous" }); // two pending questions: it asks which
    release();
  });

  it("does not wait when no prompt is being delivered in that conversation", async () => {
    const env = setup();
    const record = await env.broker.create(deployInput, { target, creator: alice });
    // A reply to some other message of the room: rule 2, the one pending question, without any wait.
    const outcome = await env.broker.handleReply({ ...target, userId: "u-alice", text: "2", replyTo: "7" });
    expect(outcome).toMatchObject({ kind: "answered", record: { id: record.id } });
    expect(env.clock.now()).toBe(T0);
  });
});
