/** Text reaches core as the person typed it, although Slack sends its own markup (SPEC §7). */
import { describe, expect, it } from "vitest";
import {
  ask,
  BOB,
  CHANNEL,
  DEPLOY,
  expectAllAcked,
  fakeSlack,
  MODES,
  waitForConfirmation,
  waitForText,
  world,
} from "./harness.ts";

const PLAN = {
  questions: [
    {
      id: "env",
      header: "Env",
      question: "Which environment?",
      options: [{ label: "Staging (Recommended)" }, { label: "Production" }],
    },
    {
      id: "color",
      header: "Color",
      question: "Which color?",
      options: [{ label: "Blue" }, { label: "Green" }],
    },
  ],
};

const TRIO = {
  questions: [
    ...PLAN.questions,
    { id: "size", header: "Size", question: "How big?", options: [{ label: "S" }, { label: "L" }] },
  ],
};

describe.each(MODES)("replies as typed over %s", (mode) => {
  it("2️⃣ (:two: on the wire) picks option 2", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, DEPLOY);
    const sent = await w.alice.say(CHANNEL, "2️⃣", { threadTs: ts });
    expect(sent.message.text).toBe(":two:");
    expect(await result).toEqual({ status: "answered", answers: { answers: { env: ["Production"] } } });
    await waitForText(w.slack, CHANNEL, ts, "✅ Deploy: Production — @alice");
  });

  it("@ask-user 2 (<@U…> 2 on the wire) picks option 2, and the summary never shows the mention", async () => {
    const slack = await fakeSlack({ botName: "ask-user" });
    const w = await world(mode, { slack });
    const { ts, result } = await ask(w, DEPLOY);
    const sent = await w.alice.say(CHANNEL, "@ask-user 2", { threadTs: ts });
    expect(sent.message.text).toBe(`<@${slack.bot.userId}> 2`);
    expect(await result).toEqual({ status: "answered", answers: { answers: { env: ["Production"] } } });
    const summary = await waitForText(w.slack, CHANNEL, ts, "✅ Deploy: Production — @alice");
    expect(JSON.stringify(summary)).not.toContain("<@");
    await waitForConfirmation(w.slack, CHANNEL, sent.message.ts);
    expectAllAcked(w.slack);
  });

  it("free text with &, < and > is recorded as typed and shown as typed", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, DEPLOY);
    const sent = await w.alice.say(CHANNEL, "R&D <first>, then ✅", { threadTs: ts });
    expect(sent.message.text).toBe("R&amp;D &lt;first&gt;, then :white_check_mark:");
    expect(await result).toEqual({
      status: "answered",
      answers: { answers: { env: ["R&D <first>, then ✅"] } },
    });
    const summary = await w.slack.waitUntil(() => w.slack.message(CHANNEL, ts)?.text.startsWith("✅ Deploy"));
    expect(summary).toBe(true);
    const text = w.slack.message(CHANNEL, ts)?.text ?? "";
    expect(w.slack.display(text)).toBe("✅ Deploy: R&D <first>, then ✅ — @alice");
  });

  it("one line `1: 2; 2: 1` answers both questions of a two-question prompt", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, PLAN);
    await w.alice.say(CHANNEL, "1: 2; 2: 1", { threadTs: ts });
    expect(await result).toEqual({
      status: "answered",
      answers: { answers: { env: ["Production"], color: ["Blue"] } },
    });
    await waitForText(w.slack, CHANNEL, ts, "✅ Env: Production · Color: Blue — @alice");
  });

  it("line breaks reach core: one answer per line", async () => {
    const w = await world(mode);
    const { result } = await ask(w, PLAN);
    await w.alice.say(CHANNEL, "Production\nGreen");
    expect(await result).toEqual({
      status: "answered",
      answers: { answers: { env: ["Production"], color: ["Green"] } },
    });
  });

  it("two people answering different questions at the same moment both keep their answer", async () => {
    const w = await world(mode);
    const record = await w.broker.create(TRIO, {
      target: { channel: "slack", conversation: CHANNEL },
      answerers: "conversation",
    });
    const ts = record.deliveries[0]?.messageId ?? "";
    const bob = w.slack.user(BOB);
    await Promise.all([
      w.alice.say(CHANNEL, "1: 1", { threadTs: ts }),
      bob.say(CHANNEL, "2: 2", { threadTs: ts }),
    ]);
    const recorded = await w.slack.waitUntil(() => {
      const notices = w.slack.messages(CHANNEL).filter((m) => m.text.startsWith("Recorded:"));
      return notices.length === 2 ? notices : undefined;
    });
    expect(recorded.every((m) => m.thread_ts === ts)).toBe(true);
    const stored = await w.broker.get(record.id);
    expect(stored?.status).toBe("pending");
    expect(stored?.draft).toEqual({ env: ["Staging (Recommended)"], color: ["Green"] });
    await w.alice.say(CHANNEL, "3: L", { threadTs: ts });
    expect(await w.broker.wait(record.id)).toEqual({
      status: "answered",
      answers: { answers: { env: ["Staging (Recommended)"], color: ["Green"], size: ["L"] } },
    });
  });
});
