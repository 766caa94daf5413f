/** The Other… modal: what it leaves behind when dismissed, and the longest answer it takes. */
import { describe, expect, it } from "vitest";
import { SECTION_TEXT_MAX_CHARS } from "../src/limits.ts";
import { RELEASE, waitForRender } from "./form-fixtures.ts";
import { ask, CHANNEL, callsOf, DEPLOY, expectAllAcked, MODES, waitForText, world } from "./harness.ts";

describe.each(MODES)("the Other… modal over %s", (mode) => {
  it("dismissed without submitting, it leaves nothing behind: a later reply 2 picks option 2", async () => {
    const w = await world(mode);
    const { record, ts, result } = await ask(w, DEPLOY);
    await w.alice.press(CHANNEL, ts, "Other…");
    const modal = await w.alice.waitForView();
    expect(modal.view.notify_on_close).toBe(false);
    expect(await w.alice.dismiss(modal.id)).toBeUndefined(); // Slack tells the app nothing
    expect((await w.broker.get(record.id))?.awaitingText).toBeUndefined();

    await w.alice.say(CHANNEL, "2", { threadTs: ts });
    expect(await result).toEqual({ status: "answered", answers: { answers: { env: ["Production"] } } });
    await waitForText(w.slack, CHANNEL, ts, "✅ Deploy: Production — @alice");
    expectAllAcked(w.slack);
  });

  it("dismissed without submitting, a later reply skip skips", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, DEPLOY);
    await w.alice.press(CHANNEL, ts, "Other…");
    await w.alice.dismiss((await w.alice.waitForView()).id);
    await w.alice.say(CHANNEL, "skip", { threadTs: ts });
    expect(await result).toEqual({ status: "no_answer", reason: "skipped" });
    await waitForText(w.slack, CHANNEL, ts, "⏭ Deploy — skipped by @alice");
  });

  it("when the modal cannot open, the tapper's next message is their own answer", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, DEPLOY);
    w.slack.failNext("views.open", { error: "expired_trigger_id" });
    await w.alice.press(CHANNEL, ts, "Other…");
    expect((await w.alice.waitForEphemeral()).text).toBe("Type your answer as a reply.");
    await w.alice.say(CHANNEL, "2", { threadTs: ts });
    expect(await result).toEqual({ status: "answered", answers: { answers: { env: ["2"] } } });
  });

  it("a 3000-character answer is kept whole; the summary fits a section and ends with who answered", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, DEPLOY);
    await w.alice.press(CHANNEL, ts, "Other…");
    const modal = await w.alice.waitForView();
    const answer = "<&>".repeat(1000); // what Slack's input allows at most, and three times longer escaped
    expect(answer).toHaveLength(3000);
    await w.alice.submit(modal.id, answer);
    expect(await result).toEqual({ status: "answered", answers: { answers: { env: [answer] } } });

    const summary = await w.slack.waitUntil(() => {
      const message = w.slack.message(CHANNEL, ts);
      return message?.edits ? message : undefined;
    });
    expect(callsOf(w.slack, "chat.update").map((call) => call.error)).toEqual([undefined]);
    const section = (summary.blocks[0] as { text: { text: string } }).text.text;
    expect(section.length).toBeLessThanOrEqual(SECTION_TEXT_MAX_CHARS);
    expect(w.slack.display(section)).toMatch(/^✅ Deploy: (<&>)+.*… — @alice$/);
    expect(summary.text).toBe(section);
    expectAllAcked(w.slack);
  });

  it("a long Other… answer to question 2 of 3 keeps Window and who answered in the summary (SPEC §6)", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, RELEASE);
    const others = (w.slack.message(CHANNEL, ts)?.blocks ?? [])
      .flatMap((b) => (b.type === "actions" && Array.isArray(b.elements) ? b.elements : []))
      .filter((e) => (e as { text?: { text?: string } }).text?.text === "Other…") as Array<{
      action_id: string;
    }>;
    await w.alice.choose(CHANNEL, ts, "Production");
    await w.alice.click(CHANNEL, ts, others[1]?.action_id ?? "");
    const modal = await w.alice.waitForView();
    const answer = "<>".repeat(1475); // 2,950 characters, four times longer escaped
    await w.alice.submit(modal.id, answer);
    await waitForRender(w, ts, "_Your answer:_ <>");
    await w.alice.choose(CHANNEL, ts, "Tonight");
    await waitForRender(w, ts, "(•) Tonight");
    await w.alice.press(CHANNEL, ts, "Send");
    expect(await result).toMatchObject({ status: "answered", answers: { answers: { regions: [answer] } } });
    const summary = await w.slack.waitUntil(() => {
      const text = w.slack.message(CHANNEL, ts)?.text ?? "";
      return text.startsWith("✅") ? text : undefined;
    });
    expect(summary.length).toBeLessThanOrEqual(SECTION_TEXT_MAX_CHARS);
    expect(w.slack.display(summary)).toMatch(
      /^✅ Env: Production · Regions: (<>)+.*… · Window: Tonight — @alice$/,
    );
    expectAllAcked(w.slack);
  });
});
