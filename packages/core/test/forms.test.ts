import { afterEach, describe, expect, it } from "vitest";
import { type AskUserBroker, createAskUser } from "../src/broker/broker.ts";
import type { QuestionRecord } from "../src/model/types.ts";
import type { RefreshRequest } from "../src/ports/channel.ts";
import {
  type Action,
  decodeAction,
  encodeAction,
  MAX_ACTION_BYTES,
  newActionToken,
} from "../src/prompt/codec.ts";
import { isForm } from "../src/prompt/view.ts";
import { normalizeAskUserInput } from "../src/schema/normalize.ts";
import { createMemoryStore } from "../src/stores/memory.ts";
import { createFakeClock } from "../src/testing/fake-clock.ts";
import { deployInput, recordingChannel, recordingLogger, severalInput, T0 } from "./helpers.ts";

const room = { channel: "chat", conversation: "room-1" };
const alice = { channel: "chat", userId: "u-alice", displayName: "@alice" };
const brokers: AskUserBroker[] = [];
afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
});

function setup() {
  const channel = recordingChannel();
  const refreshed: RefreshRequest[] = [];
  channel.refresh = async (request) => {
    refreshed.push(structuredClone(request));
  };
  const broker = createAskUser({
    store: createMemoryStore(),
    channels: [channel],
    clock: createFakeClock(T0),
    logger: recordingLogger(),
  });
  brokers.push(broker);
  return { channel, broker, refreshed };
}

/** A control on question `question` of `record`, tapped by alice (or `userId`). */
function control(record: QuestionRecord, question: number, action: Action, extra: object = {}) {
  return {
    ...room,
    userId: "u-alice",
    displayName: "@alice",
    data: encodeAction(record.tokens[question] ?? "", action),
    ...extra,
  };
}

describe("form controls: the codec", () => {
  it("round-trips every control within the byte limit, and refuses garbage", () => {
    const token = newActionToken(Date.UTC(2026, 11, 5));
    const actions: Action[] = [
      { kind: "option", index: 3 },
      { kind: "pick", index: 9 },
      { kind: "choose" },
      { kind: "other" },
      { kind: "skip" },
      { kind: "submit" },
      { kind: "view" },
    ];
    for (const action of actions) {
      const data = encodeAction(token, action);
      expect(new TextEncoder().encode(data).length).toBeLessThanOrEqual(MAX_ACTION_BYTES);
      expect(decodeAction(data)).toEqual({ token, action });
    }
    expect(decodeAction(`au1.${token}.p`)).toBeUndefined();
    expect(decodeAction(`au1.${token}.pp1`)).toBeUndefined();
    expect(() => encodeAction(token, { kind: "pick", index: 10 })).toThrow(TypeError);
  });

  it("calls a prompt a form when it has several questions or a multi-select one", () => {
    expect(isForm(normalizeAskUserInput(deployInput))).toBe(false);
    expect(isForm(normalizeAskUserInput(severalInput))).toBe(true);
    const multi = { questions: [{ ...severalInput.questions[1], id: "r" }] };
    expect(isForm(normalizeAskUserInput(multi))).toBe(true);
  });
});

describe("form controls: the shared draft", () => {
  it("stages picks (toggling multi-select, replacing single-select) and answers only on Send", async () => {
    const { broker } = setup();
    const record = await broker.create(severalInput, { target: room, creator: alice });
    let outcome = await broker.handleAction(control(record, 0, { kind: "pick", index: 1 }));
    expect(outcome).toMatchObject({ kind: "staged", questionIndex: 0, text: "Selected: Prod" });
    outcome = await broker.handleAction(control(record, 0, { kind: "pick", index: 0 }));
    expect(outcome).toMatchObject({ kind: "staged", text: "Selected: Staging" });
    await broker.handleAction(control(record, 1, { kind: "pick", index: 2 }));
    outcome = await broker.handleAction(control(record, 1, { kind: "pick", index: 0 }));
    expect(outcome).toMatchObject({ kind: "staged", questionIndex: 1, text: "Selected: EU, Asia" });
    outcome = await broker.handleAction(control(record, 1, { kind: "pick", index: 2 }));
    expect(outcome).toMatchObject({ text: "Selected: EU" });
    expect((await broker.get(record.id))?.status).toBe("pending");
    outcome = await broker.handleAction(control(record, 0, { kind: "submit" }));
    expect(outcome).toMatchObject({ kind: "answered" });
    expect((await broker.get(record.id))?.answers).toEqual({ env: ["Staging"], regions: ["EU"] });
  });

  it("refuses Send with what is missing, and keeps the draft", async () => {
    const { broker } = setup();
    const record = await broker.create(severalInput, { target: room, creator: alice });
    await broker.handleAction(control(record, 1, { kind: "pick", index: 1 }));
    const outcome = await broker.handleAction(control(record, 0, { kind: "submit" }));
    expect(outcome).toMatchObject({ kind: "invalid", text: "Still needed: Env." });
    const stored = await broker.get(record.id);
    expect(stored).toMatchObject({ status: "pending", draft: { regions: ["US"] } });
  });

  it("takes a select menu's values at once, and refuses indices that are no option", async () => {
    const { broker } = setup();
    const record = await broker.create(severalInput, { target: room, creator: alice });
    let outcome = await broker.handleAction(control(record, 1, { kind: "choose" }, { values: [2, 0, 2] }));
    expect(outcome).toMatchObject({ kind: "staged", text: "Selected: EU, Asia" });
    outcome = await broker.handleAction(control(record, 0, { kind: "choose" }, { values: [0, 1] }));
    expect(outcome).toMatchObject({ kind: "invalid", text: "This question is no longer known." });
    outcome = await broker.handleAction(control(record, 1, { kind: "choose" }, { values: [7] }));
    expect(outcome).toMatchObject({ kind: "invalid" });
    outcome = await broker.handleAction(control(record, 1, { kind: "choose" }, { values: [] }));
    expect(outcome).toMatchObject({ kind: "staged", text: "Nothing selected." });
    expect((await broker.get(record.id))?.draft).toBeUndefined();
  });

  it("adds Other… text to a multi-select question's picks instead of answering", async () => {
    const { broker } = setup();
    const record = await broker.create(severalInput, { target: room, creator: alice });
    await broker.handleAction(control(record, 1, { kind: "pick", index: 0 }));
    let outcome = await broker.handleAction(control(record, 1, { kind: "other" }, { text: " Mars " }));
    expect(outcome).toMatchObject({ kind: "staged", text: "Selected: EU, Mars" });
    outcome = await broker.handleAction(control(record, 1, { kind: "other" }, { text: "Moon" }));
    expect(outcome).toMatchObject({ text: "Selected: EU, Moon" });
    // A select menu change keeps the typed answer.
    outcome = await broker.handleAction(control(record, 1, { kind: "choose" }, { values: [1] }));
    expect(outcome).toMatchObject({ text: "Selected: US, Moon" });
  });

  it("shares the draft with the text stepper: a typed reply completes what taps began", async () => {
    const { broker } = setup();
    const record = await broker.create(severalInput, { target: room, creator: alice });
    await broker.handleAction(control(record, 0, { kind: "pick", index: 1 }));
    const outcome = await broker.handleReply({ ...room, userId: "u-alice", text: "2: EU, Asia" });
    expect(outcome).toMatchObject({ kind: "answered" });
    expect((await broker.get(record.id))?.answers).toEqual({ env: ["Prod"], regions: ["EU", "Asia"] });
  });

  it("stages a Telegram-style Other… reply in a form instead of answering the prompt", async () => {
    const { broker } = setup();
    const record = await broker.create(severalInput, { target: room, creator: alice });
    await broker.handleAction(control(record, 0, { kind: "pick", index: 0 }));
    const asked = await broker.handleAction(control(record, 1, { kind: "other" }));
    expect(asked.kind).toBe("awaiting_text");
    const outcome = await broker.handleReply({ ...room, userId: "u-alice", text: "Mars" });
    expect(outcome).toMatchObject({ kind: "staged", questionIndex: 1, text: "Selected: Mars" });
    expect(await broker.get(record.id)).toMatchObject({
      status: "pending",
      draft: { env: ["Staging"], regions: ["Mars"] },
    });
  });

  it("checks who may answer before staging anything", async () => {
    const { broker } = setup();
    const record = await broker.create(severalInput, { target: room, creator: alice });
    const outcome = await broker.handleAction({
      ...control(record, 0, { kind: "pick", index: 0 }),
      userId: "u-bob",
      displayName: "@bob",
    });
    expect(outcome).toMatchObject({ kind: "refused", text: "This question is for @alice." });
    expect((await broker.get(record.id))?.draft).toBeUndefined();
  });

  it("answers `view` with the record and changes nothing", async () => {
    const { broker, refreshed } = setup();
    const record = await broker.create(severalInput, { target: room, creator: alice });
    const outcome = await broker.handleAction(control(record, 1, { kind: "view" }));
    expect(outcome).toMatchObject({ kind: "staged", questionIndex: 1, text: "" });
    await broker.idle();
    expect(refreshed).toEqual([]);
  });

  it("refreshes the prompt message after every draft change, from taps and typed replies, with the latest draft", async () => {
    const { broker, refreshed } = setup();
    const record = await broker.create(severalInput, { target: room, creator: alice });
    await broker.handleReply({ ...room, userId: "u-alice", text: "2: EU" });
    await broker.idle();
    expect(refreshed.at(-1)?.record.draft).toEqual({ regions: ["EU"] });
    expect(refreshed.at(-1)?.delivery.kind).toBe("prompt");
    await broker.handleAction(control(record, 0, { kind: "pick", index: 1 }));
    await broker.idle();
    expect(refreshed.at(-1)?.record.draft).toEqual({ regions: ["EU"], env: ["Prod"] });
    const count = refreshed.length;
    await broker.handleAction(control(record, 0, { kind: "submit" }));
    await broker.idle();
    expect(refreshed.length).toBe(count); // the ended prompt gets its summary instead
  });

  it("shows a draft that changed while the prompt was being delivered, once it is delivered", async () => {
    const { channel, broker, refreshed } = setup();
    const deliver = channel.deliver.bind(channel);
    channel.deliver = async (request) => {
      await broker.handleReply({ ...room, userId: "u-alice", text: "2: EU" });
      return deliver(request);
    };
    await broker.create(severalInput, { target: room, creator: alice });
    await broker.idle();
    expect(refreshed.map((r) => r.record.draft)).toEqual([{ regions: ["EU"] }]);
  });
});
