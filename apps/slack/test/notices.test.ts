/** What the channel says to people besides the prompt: refusals that name people, confirmations. */
import { describe, expect, it } from "vitest";
import {
  ask,
  BOB,
  CHANNEL,
  callsOf,
  DEPLOY,
  MODES,
  waitForConfirmation,
  waitForText,
  world,
} from "./harness.ts";

const TWO = {
  questions: [
    {
      id: "env",
      header: "Env",
      question: "Which?",
      options: [{ label: "Staging" }, { label: "Production" }],
    },
    { id: "color", header: "Color", question: "Which?", options: [{ label: "Blue" }, { label: "Green" }] },
  ],
};

describe.each(MODES)("notices over %s", (mode) => {
  it("names the creator the Slack way in a refusal, never by the bare id", async () => {
    const w = await world(mode);
    const record = await w.broker.create(DEPLOY, {
      target: { channel: "slack", conversation: CHANNEL },
      creator: { channel: "slack", userId: "U0ALICE" },
    });
    const ts = record.deliveries[0]?.messageId ?? "";
    const bob = w.slack.user(BOB);

    await bob.press(CHANNEL, ts, "Production");
    const tap = await bob.waitForEphemeral();
    expect(tap.text).toBe("This question is for <@U0ALICE>.");
    expect(w.slack.display(tap.text)).toBe("This question is for @alice.");

    await bob.say(CHANNEL, "2", { threadTs: ts });
    const reply = await bob.waitForEphemeral((e) => e.via === "chat.postEphemeral");
    expect(reply).toMatchObject({ text: "This question is for <@U0ALICE>.", thread_ts: ts });
    for (const refusal of bob.ephemerals()) {
      expect(refusal.text.replace(/<@U0ALICE>/g, "")).not.toContain("U0ALICE");
    }
    expect((await w.broker.get(record.id))?.status).toBe("pending");
  });

  it("names a person <@U…> when users.info fails: in the summary of a tap and in a refusal", async () => {
    const w = await world(mode);
    const record = await w.broker.create(DEPLOY, {
      target: { channel: "slack", conversation: CHANNEL },
      answerers: "conversation",
    });
    const ts = record.deliveries[0]?.messageId ?? "";
    const result = w.broker.wait(record.id);
    w.slack.failNext("users.info", { error: "missing_scope" });
    await w.alice.press(CHANNEL, ts, "Production");
    await result;
    const summary = await waitForText(w.slack, CHANNEL, ts, "✅ Deploy: Production — <@U0ALICE>");
    expect(w.slack.display(summary.text)).toBe("✅ Deploy: Production — @alice");
    expect(callsOf(w.slack, "users.info").map((call) => call.error)).toEqual(["missing_scope"]);

    await w.bob.say(CHANNEL, "1", { threadTs: ts });
    const refusal = await w.bob.waitForEphemeral();
    expect(refusal.text).toBe("This question was already answered by <@U0ALICE>.");
    expect(w.slack.display(refusal.text)).toBe("This question was already answered by @alice.");
  });

  it("names a person <@U…> when users.info fails: in the summary of a text reply", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, DEPLOY);
    w.slack.failNext("users.info", { error: "missing_scope" });
    await w.alice.say(CHANNEL, "2", { threadTs: ts });
    await result;
    const summary = await waitForText(w.slack, CHANNEL, ts, "✅ Deploy: Production — <@U0ALICE>");
    expect(w.slack.display(summary.text)).toBe("✅ Deploy: Production — @alice");
    expect(JSON.stringify(summary.blocks)).toContain("— <@U0ALICE>");
  });

  it("a text answer is confirmed with a ✅ on it; a message confirms it when Slack refuses the reaction", async () => {
    const w = await world(mode);
    const first = await ask(w, DEPLOY);
    const answer = await w.alice.say(CHANNEL, "2"); // in the channel, not in the question's thread
    await first.result;
    await waitForConfirmation(w.slack, CHANNEL, answer.message.ts);
    await waitForText(w.slack, CHANNEL, first.ts, "✅ Deploy: Production — @alice");
    expect(w.slack.render(CHANNEL, answer.message.ts)).toBe("2\n:white_check_mark: 1");

    const second = await ask(w, DEPLOY);
    w.slack.failNext("reactions.add", { error: "missing_scope" });
    const again = await w.alice.say(CHANNEL, "1");
    await second.result;
    const confirmation = await w.slack.waitUntil(() =>
      w.slack.messages(CHANNEL).find((m) => m.text === "Recorded: Staging (Recommended)"),
    );
    expect(confirmation.thread_ts).toBe(again.message.ts);
    expect(w.logger.lines.join("\n")).toContain("could not react to confirm an answer");
  });

  it("a reply in the thread of a stepper notice goes to that question, which says it has ended", async () => {
    const w = await world(mode);
    const first = await ask(w, TWO);
    const answer = await w.alice.say(CHANNEL, "1: 2"); // in the channel, not in the question's thread
    const notice = await w.slack.waitUntil(() =>
      w.slack.messages(CHANNEL).find((m) => m.text.startsWith("Recorded: Env: Production.")),
    );
    expect(notice.thread_ts).toBe(answer.message.ts);
    await w.alice.say(CHANNEL, "Green", { threadTs: notice.ts });
    await first.result;
    const second = await ask(w, DEPLOY);
    await w.alice.say(CHANNEL, "1", { threadTs: notice.ts });
    const refusal = await w.alice.waitForEphemeral();
    expect(refusal.text).toBe("This question was already answered by @alice.");
    expect((await w.broker.get(second.record.id))?.status).toBe("pending");
  });

  it("returns the thread it posted into for public notices, nothing for ephemeral ones", async () => {
    const w = await world(mode);
    const channel = w.slackChannel;
    const posted = await channel.notify({ conversation: CHANNEL, text: "Recorded: x", locale: "en" });
    const message = w.slack.messages(CHANNEL).find((m) => m.text === "Recorded: x");
    expect(posted).toEqual({ messageId: message?.ts });
    const threaded = await channel.notify({
      conversation: CHANNEL,
      text: "Recorded: y",
      locale: "en",
      replyTo: message?.ts ?? "",
    });
    expect(threaded).toEqual({ messageId: message?.ts });
    const ephemeral = await channel.notify({
      conversation: CHANNEL,
      text: "only you",
      locale: "en",
      userId: "U0ALICE",
      private: true,
    });
    expect(ephemeral).toBeUndefined();
    expect(w.alice.ephemerals().map((e) => e.text)).toEqual(["only you"]);
  });
});
