import { describe, expect, it } from "vitest";
import {
  ALICE,
  ask,
  CHANNEL,
  callsOf,
  DEPLOY,
  expectAllAcked,
  MODES,
  waitForConfirmation,
  waitForText,
  world,
} from "./harness.ts";

const REGIONS = {
  questions: [
    {
      id: "regions",
      header: "Regions",
      question: "Where should it run?",
      multiSelect: true,
      options: [{ label: "EU" }, { label: "US" }, { label: "APAC", description: "Singapore <!channel>" }],
    },
  ],
};

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

const REPLIES: Array<[string, string]> = [
  ["2", "Production"],
  ["staging", "Staging (Recommended)"],
  ["Canary first, then everyone", "Canary first, then everyone"],
];

describe.each(MODES)("text replies over %s", (mode) => {
  it.each(REPLIES)("a reply %j in the question's thread answers %j", async (reply, answer) => {
    const w = await world(mode);
    const { ts, result } = await ask(w, DEPLOY);
    const sent = await w.alice.say(CHANNEL, reply, { threadTs: ts });
    expect(await result).toEqual({ status: "answered", answers: { answers: { env: [answer] } } });
    // Confirmed quietly: a ✅ on the reply, while the question's message says what was recorded.
    await waitForConfirmation(w.slack, CHANNEL, sent.message.ts);
    await waitForText(w.slack, CHANNEL, ts, `✅ Deploy: ${answer} — @alice`);
    await w.broker.idle();
    expect(callsOf(w.slack, "chat.postMessage")).toHaveLength(1); // the prompt, no "Recorded: …"
    expectAllAcked(w.slack);
  });

  it.each(REPLIES)("a direct message %j answers %j a question asked in DM", async (reply, answer) => {
    const w = await world(mode);
    const { ts, result } = await ask(w, DEPLOY, ALICE.id, undefined);
    const dm = w.alice.dm;
    expect(callsOf(w.slack, "conversations.open")[0]?.params.users).toBe(ALICE.id);
    expect(w.slack.message(dm, ts)?.blocks.length).toBeGreaterThan(0);
    const sent = await w.alice.say(dm, reply);
    expect(await result).toEqual({ status: "answered", answers: { answers: { env: [answer] } } });
    await waitForConfirmation(w.slack, dm, sent.message.ts);
    await waitForText(w.slack, dm, ts, `✅ Deploy: ${answer} — @alice`);
  });

  it("a multi-select prompt keeps its readable text beside the checkboxes and is answered by numbers", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, REGIONS);
    const posted = w.slack.message(CHANNEL, ts);
    expect(w.slack.render(CHANNEL, ts)).toContain("[ ] EU\n[ ] US\n[ ] APAC — Singapore <!channel>");
    expect(posted?.text).toContain(
      "Regions: Where should it run?\n   1. EU\n   2. US\n   3. APAC — Singapore &lt;!channel&gt;",
    );
    expect(posted?.text).toMatch(
      /\nExpires at <!date\^\d+\^\{date_short_pretty\} \{time\}\|\d{4}-\d\d-\d\d \d\d:\d\d UTC>\.$/,
    );
    await w.alice.say(CHANNEL, "3, 1", { threadTs: ts });
    expect(await result).toEqual({ status: "answered", answers: { answers: { regions: ["EU", "APAC"] } } });
    await waitForText(w.slack, CHANNEL, ts, "✅ Regions: EU, APAC — @alice");
  });

  it("several questions go through the stepper: a partial reply, then the rest in the notice's thread", async () => {
    const w = await world(mode);
    const { record, ts, result } = await ask(w, PLAN);
    expect(w.slack.message(CHANNEL, ts)?.text).toContain("1) Env: Which environment?");

    const first = await w.alice.say(CHANNEL, "1: 2");
    const notice = await w.slack.waitUntil(() =>
      w.slack.messages(CHANNEL).find((m) => m.text.startsWith("Recorded: Env: Production.\nStill needed:")),
    );
    expect(notice.text).toContain("2) Color: Which color?");
    expect(notice.thread_ts).toBe(first.message.ts);
    expect((await w.broker.get(record.id))?.draft).toEqual({ env: ["Production"] });
    // The typed answer shows in the form too: the draft is the same.
    await w.slack.waitUntil(() =>
      w.slack.render(CHANNEL, ts).includes("( ) Staging (Recommended)\n(•) Production"),
    );

    await w.alice.say(CHANNEL, "Green", { threadTs: notice.ts });
    expect(await result).toEqual({
      status: "answered",
      answers: { answers: { env: ["Production"], color: ["Green"] } },
    });
    await waitForText(w.slack, CHANNEL, ts, "✅ Env: Production · Color: Green — @alice");
  });

  it("a question posted into a thread takes its answers there", async () => {
    const w = await world(mode);
    const request = await w.alice.say(CHANNEL, "can you deploy?");
    const { ts, result } = await ask(w, DEPLOY, `${CHANNEL}:${request.message.ts}`, undefined);
    expect(w.slack.message(CHANNEL, ts)?.thread_ts).toBe(request.message.ts);
    await w.alice.say(CHANNEL, "1", { threadTs: request.message.ts });
    expect(await result).toEqual({
      status: "answered",
      answers: { answers: { env: ["Staging (Recommended)"] } },
    });
    await waitForText(w.slack, CHANNEL, ts, "✅ Deploy: Staging (Recommended) — @alice");
  });

  it("a reply from someone else is refused privately and the question stays open", async () => {
    const w = await world(mode);
    const { record, ts } = await ask(w, DEPLOY);
    await w.bob.say(CHANNEL, "2", { threadTs: ts });
    const refusal = await w.bob.waitForEphemeral();
    expect(refusal).toMatchObject({ text: "This question is for @U0ALICE.", thread_ts: ts });
    expect((await w.broker.get(record.id))?.status).toBe("pending");
  });

  it("handles an event Slack delivers twice only once", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, DEPLOY);
    const sent = await w.alice.say(CHANNEL, "1", { threadTs: ts });
    await result;
    await waitForConfirmation(w.slack, CHANNEL, sent.message.ts);
    const again = await w.slack.deliver(sent.delivery.request);
    expect(again.status).toBe(200);
    await w.broker.idle();
    expect(callsOf(w.slack, "reactions.add")).toHaveLength(1);
    expect(w.slack.ephemerals).toEqual([]);
  });

  it("ignores messages from bots, including its own", async () => {
    const w = await world(mode, { echoBotMessages: true });
    const robot = w.slack.user({ id: "U0ROBOT", name: "robot", bot_id: "B0ROBOT" });
    const { record, ts, result } = await ask(w, DEPLOY, CHANNEL, undefined);
    await robot.say(CHANNEL, "2", { threadTs: ts });
    expect((await w.broker.get(record.id))?.status).toBe("pending");
    const sent = await w.alice.say(CHANNEL, "1", { threadTs: ts });
    await result;
    await waitForConfirmation(w.slack, CHANNEL, sent.message.ts);
    await w.broker.idle();
    // The bot's own prompt came back as an event and answered nothing.
    await w.slack.waitUntil(() => w.slack.deliveries.filter((d) => d.type === "event_callback").length >= 3);
    expect(callsOf(w.slack, "chat.postMessage")).toHaveLength(1);
    expect(callsOf(w.slack, "reactions.add")).toHaveLength(1);
    expect(w.slack.ephemerals).toEqual([]);
    expect(w.logger.lines).toEqual([]);
  });
});
