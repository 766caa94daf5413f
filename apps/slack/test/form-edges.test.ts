/**
 * Forms at their edges: a draft that survives a restart, a Send that beats a re-render, "For @alice" in a
 * shared channel, and Slack's limits (long labels cut with "…", more options than a group holds → text).
 */
import { createMemoryStore, normalizeAskUserInput } from "@ask-user/core";
import type { QuestionRecord } from "@ask-user/core/channel";
import { sampleRecord } from "@ask-user/core/testing";
import { describe, expect, it } from "vitest";
import { createSlackChannel } from "../src/index.ts";
import { RELEASE, waitForRender } from "./form-fixtures.ts";
import { ALICE, ask, CHANNEL, callsOf, DEPLOY, fakeSlack, MODES, waitForText, world } from "./harness.ts";

describe.each(MODES)("form edges over %s", (mode) => {
  it("a staged pick survives a restart over the same store, and taps finish the form", async () => {
    // Without echoes: the app's own posts coming back while it restarts would find nobody to ack them.
    const slack = await fakeSlack({ echoBotMessages: false });
    const store = createMemoryStore();
    const first = await world(mode, { store, slack });
    const { record, ts } = await ask(first, RELEASE);
    await first.alice.choose(CHANNEL, ts, "Production");
    await waitForRender(first, ts, "(•) Production");
    await first.stop(); // the process ends; the store (and Slack) stay

    const second = await world(mode, { store, slack: first.slack });
    expect((await second.broker.get(record.id))?.draft).toEqual({ env: ["Production"] });
    const result = second.broker.wait(record.id);
    await second.alice.choose(CHANNEL, ts, "EU");
    await second.alice.choose(CHANNEL, ts, "Now");
    await second.alice.press(CHANNEL, ts, "Send");
    expect(await result).toEqual({
      status: "answered",
      answers: { answers: { env: ["Production"], regions: ["EU"], window: ["Now"] } },
    });
    await waitForText(second.slack, CHANNEL, ts, "✅ Env: Production · Regions: EU · Window: Now — @alice");
  });

  it("a re-render that lands after the summary edit is followed by the summary again", async () => {
    const w = await world(mode);
    const { record, ts, result } = await ask(w, RELEASE);
    const stale = { ...record, draft: { env: ["Production"] } }; // a refresh still on its way
    await w.broker.answer(
      record.id,
      { env: ["Staging (Recommended)"], regions: ["US"], window: ["Now"] },
      { channel: "web", userId: "op", displayName: "operator" },
    );
    await result;
    const summary = "✅ Env: Staging (Recommended) · Regions: US · Window: Now — operator via the web panel";
    await waitForText(w.slack, CHANNEL, ts, summary);
    const delivery = record.deliveries[0];
    if (!delivery || !w.slackChannel.refresh) throw new Error("no refresh");
    // This instance edited the summary: the late re-render is not sent at all.
    await w.slackChannel.refresh({ record: stale, delivery, locale: "en" });
    expect(w.slack.render(CHANNEL, ts)).toBe(summary);
    expect(callsOf(w.slack, "chat.update")).toHaveLength(1);
    // Another instance (it did not edit the summary) sends it, then the summary again.
    const other = createSlackChannel({ app: w.app, logger: w.logger });
    await other.start(w.broker);
    await other.stop(); // its middleware passes every request on: only its outbound side is used
    await other.refresh?.({ record: stale, delivery, locale: "en" });
    expect(w.slack.render(CHANNEL, ts)).toBe(summary);
    expect(callsOf(w.slack, "chat.update")).toHaveLength(3);
  });

  it("in a shared channel the prompt says whom it is for, as a mention; agent text stays escaped", async () => {
    const w = await world(mode);
    const input = {
      questions: [{ ...RELEASE.questions[0], question: "Ask <@U0BOB>?" }, ...RELEASE.questions.slice(1)],
    };
    const form = await w.broker.create(input, {
      target: { channel: "slack", conversation: CHANNEL },
      creator: { channel: "slack", userId: ALICE.id }, // no name: the channel names her <@U0ALICE>
    });
    const formTs = form.deliveries[0]?.messageId ?? "";
    const posted = w.slack.message(CHANNEL, formTs);
    expect(JSON.stringify(posted?.blocks)).toContain('"text":"For <@U0ALICE>"');
    expect(JSON.stringify(posted?.blocks)).toContain("Ask &lt;@U0BOB&gt;?");
    expect(posted?.text.startsWith("For <@U0ALICE>\n\n1) Env")).toBe(true);
    expect(w.slack.render(CHANNEL, formTs).startsWith("For @alice\n*1) Env*\nAsk <@U0BOB>?")).toBe(true);

    const buttons = await w.broker.create(DEPLOY, {
      target: { channel: "slack", conversation: CHANNEL },
      creator: { channel: "slack", userId: ALICE.id },
    });
    const buttonsTs = buttons.deliveries[0]?.messageId ?? "";
    expect(w.slack.render(CHANNEL, buttonsTs).split("\n")[0]).toBe("For @alice");

    // In her direct messages nobody else could answer: no "For" line.
    const dm = await ask(w, DEPLOY, ALICE.id);
    expect(w.slack.render(w.alice.dm, dm.ts)).not.toContain("For ");
  });

  it("long labels are cut with … to Slack's 75 in buttons and in options; long descriptions go to a context", async () => {
    const w = await world(mode);
    const emoji = "👍🏽".repeat(64); // 64 characters as people count them, 256 UTF-16 units
    const long = "d".repeat(120);
    const single = await ask(w, {
      questions: [{ ...DEPLOY.questions[0], options: [{ label: emoji }, { label: "Plain" }] }],
    });
    expect(w.slack.render(CHANNEL, single.ts)).toContain(`[${"👍🏽".repeat(18)}…]`);
    const multi = await ask(w, {
      questions: [
        {
          id: "regions",
          header: "Regions",
          question: "Which?",
          multiSelect: true,
          options: [{ label: emoji, description: long }, { label: "US" }],
        },
      ],
    });
    const shown = w.slack.render(CHANNEL, multi.ts);
    expect(shown).toContain(`[ ] ${"👍🏽".repeat(18)}…\n[ ] US`);
    expect(shown).toContain(`— ${long}`); // the whole description, in the context above the options
    expect(callsOf(w.slack, "chat.postMessage").every((c) => c.error === undefined)).toBe(true);
    await w.alice.choose(CHANNEL, multi.ts, `${"👍🏽".repeat(18)}…`);
    await w.alice.press(CHANNEL, multi.ts, "Send");
    expect(await multi.result).toEqual({ status: "answered", answers: { answers: { regions: [emoji] } } });
  });

  it("a question with more options than a group holds (10) is asked as readable text", async () => {
    const w = await world(mode);
    const labels = Array.from({ length: 11 }, (_, i) => ({ label: `Option ${i + 1}` }));
    // The schema allows 4 options: a record built by hand stands for a bigger catalogue.
    const prompt = normalizeAskUserInput(RELEASE);
    const [env, regions] = prompt.questions;
    if (!env || !regions) throw new Error("no question");
    const record: QuestionRecord = {
      ...sampleRecord(),
      prompt: { ...prompt, questions: [env, { ...regions, options: labels }] },
      tokens: ["tokentokentoken0", "tokentokentoken1"],
      target: { channel: "slack", conversation: CHANNEL },
    };
    const ref = await w.slackChannel.deliver({
      record,
      locale: "en",
      text: "1) Env: Where should the release go?\n   1. Staging (Recommended)\n\n2) Regions: Which regions?\n   11. Option 11",
      buttons: false,
    });
    const posted = w.slack.message(CHANNEL, ref.messageId);
    expect(posted?.blocks).toEqual([]);
    expect(posted?.text).toContain("   11. Option 11");
  });
});
