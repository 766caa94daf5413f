/** Forms (issue #15): several questions or a multi-select one, answered with radio buttons, checkboxes, Other… and Send. */
import { describe, expect, it } from "vitest";
import { ANSWER_BLOCK_ID } from "../src/index.ts";
import { RELEASE, waitForRender } from "./form-fixtures.ts";
import {
  ask,
  CHANNEL,
  callsOf,
  expectAllAcked,
  MODES,
  waitForConfirmation,
  waitForText,
  world,
} from "./harness.ts";

describe.each(MODES)("forms over %s", (mode) => {
  it("a three-question prompt with a multi-select is answered by taps alone", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, RELEASE);
    const posted = w.slack.render(CHANNEL, ts);
    expect(posted).toContain(
      "*1) Env*\nWhere should the release go?\n( ) Staging (Recommended) — Safe: reversible",
    );
    expect(posted).toContain("*2) Regions*\nWhich regions?\n[ ] EU\n[ ] US\n[ ] APAC\n[Other…]");
    expect(posted).toContain("[Send]  [Skip]");
    // The readable text stays in the message (notifications, search, clients without blocks).
    expect(w.slack.message(CHANNEL, ts)?.text).toContain("2) Regions: Which regions?\n   1. EU");

    await w.alice.choose(CHANNEL, ts, "Production");
    await w.alice.choose(CHANNEL, ts, "EU");
    await w.alice.choose(CHANNEL, ts, "APAC");
    await w.alice.choose(CHANNEL, ts, "Tonight");
    await waitForRender(w, ts, "(•) Production", "[✓] EU\n[ ] US\n[✓] APAC", "(•) Tonight");
    await w.alice.press(CHANNEL, ts, "Send");

    expect(await result).toEqual({
      status: "answered",
      answers: { answers: { env: ["Production"], regions: ["EU", "APAC"], window: ["Tonight"] } },
    });
    const summary = "✅ Env: Production · Regions: EU, APAC · Window: Tonight — @alice";
    await waitForText(w.slack, CHANNEL, ts, summary);
    expect(w.slack.render(CHANNEL, ts)).toBe(summary);
    await w.broker.idle();
    expect(w.alice.ephemerals()).toEqual([]); // every tap showed in the message itself
    expect(callsOf(w.slack, "chat.postMessage")).toHaveLength(1);
    expectAllAcked(w.slack);
  });

  it("Send with a question open says what is still needed, privately, and keeps the form", async () => {
    const w = await world(mode);
    const { record, ts } = await ask(w, RELEASE);
    await w.alice.choose(CHANNEL, ts, "US");
    await w.alice.press(CHANNEL, ts, "Send");
    expect((await w.alice.waitForEphemeral()).text).toBe("Still needed: Env, Window.");
    expect((await w.broker.get(record.id))?.status).toBe("pending");
    await waitForRender(w, ts, "[ ] EU\n[✓] US", "[Send]");
  });

  it("unticking a checkbox takes the option out of the draft", async () => {
    const w = await world(mode);
    const { record, ts } = await ask(w, RELEASE);
    await w.alice.choose(CHANNEL, ts, "EU");
    await w.alice.choose(CHANNEL, ts, "US");
    await waitForRender(w, ts, "[✓] EU\n[✓] US");
    await w.alice.choose(CHANNEL, ts, "EU");
    await waitForRender(w, ts, "[ ] EU\n[✓] US");
    expect((await w.broker.get(record.id))?.draft).toEqual({ regions: ["US"] });
  });

  it("Other… in a form opens a modal whose text joins the draft and shows in the form", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, RELEASE);
    const others = w.slack
      .message(CHANNEL, ts)
      ?.blocks.flatMap((b) => (b.type === "actions" && Array.isArray(b.elements) ? b.elements : []));
    const regionsOther = (others ?? []).filter(
      (e) => (e as { text?: { text?: string } }).text?.text === "Other…",
    )[1] as { action_id: string };
    await w.alice.choose(CHANNEL, ts, "EU");
    await w.alice.click(CHANNEL, ts, regionsOther.action_id);
    const modal = await w.alice.waitForView();
    expect(JSON.stringify(modal.view.blocks)).toContain("Which regions?");
    const submitted = await w.alice.submit(modal.id, "Mars");
    expect(submitted.body ?? {}).toEqual({}); // closes: the text is staged, not yet the answer
    await waitForRender(w, ts, "*2) Regions*\nWhich regions?\n_Your answer:_ Mars\n[✓] EU");

    // Opened again, the modal holds the own answer so far.
    await w.alice.click(CHANNEL, ts, regionsOther.action_id);
    const again = await w.alice.waitForView();
    expect(JSON.stringify(again.view.blocks)).toContain('"initial_value":"Mars"');
    await w.alice.submit(again.id, "Moon");

    await w.alice.choose(CHANNEL, ts, "Staging (Recommended)");
    await w.alice.choose(CHANNEL, ts, "Now");
    await waitForRender(w, ts, "_Your answer:_ Moon", "(•) Now");
    await w.alice.press(CHANNEL, ts, "Send");
    expect(await result).toEqual({
      status: "answered",
      answers: { answers: { env: ["Staging (Recommended)"], regions: ["EU", "Moon"], window: ["Now"] } },
    });
    expectAllAcked(w.slack);
  });

  it("an empty Other… submission in a form is a field error", async () => {
    const w = await world(mode);
    const { ts } = await ask(w, RELEASE);
    const other = (w.slack.message(CHANNEL, ts)?.blocks ?? [])
      .flatMap((b) => (b.type === "actions" && Array.isArray(b.elements) ? b.elements : []))
      .find((e) => (e as { text?: { text?: string } }).text?.text === "Other…") as { action_id: string };
    await w.alice.click(CHANNEL, ts, other.action_id);
    const modal = await w.alice.waitForView();
    const empty = await w.alice.submit(modal.id, "  ");
    expect(empty.body).toEqual({
      response_action: "errors",
      errors: { [ANSWER_BLOCK_ID]: "The reply is empty." },
    });
  });

  it("Skip skips the whole form and the summary keeps what was asked", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, RELEASE);
    await w.alice.choose(CHANNEL, ts, "EU");
    await w.alice.press(CHANNEL, ts, "Skip");
    expect(await result).toEqual({ status: "no_answer", reason: "skipped" });
    await waitForText(w.slack, CHANNEL, ts, "⏭ Env · Regions · Window — skipped by @alice");
  });

  it("someone else's choice is refused privately and leaves the draft and the message alone", async () => {
    const w = await world(mode);
    const { record, ts } = await ask(w, RELEASE);
    await w.bob.choose(CHANNEL, ts, "Production");
    expect((await w.bob.waitForEphemeral()).text).toBe("This question is for @U0ALICE.");
    await w.broker.idle();
    expect((await w.broker.get(record.id))?.draft).toBeUndefined();
    expect(w.slack.message(CHANNEL, ts)?.edits).toBe(0);
  });

  it("taps and typed replies fill one draft: a tap, then a line in the thread, then Send", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, RELEASE);
    await w.alice.choose(CHANNEL, ts, "US");
    await waitForRender(w, ts, "[✓] US");
    await w.alice.say(CHANNEL, "1: 2", { threadTs: ts });
    // The typed answer shows in the form: Env's radio button is selected now.
    await waitForRender(w, ts, "(•) Production", "[✓] US");
    await w.alice.choose(CHANNEL, ts, "Tonight");
    await w.alice.press(CHANNEL, ts, "Send");
    expect(await result).toEqual({
      status: "answered",
      answers: { answers: { env: ["Production"], regions: ["US"], window: ["Tonight"] } },
    });
  });

  it("Send right after a tap sends what the person sees, even before that tap was handled", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, RELEASE);
    // No waiting in between: the taps and Send race to the broker, as quick fingers make them.
    await Promise.all([
      w.alice.choose(CHANNEL, ts, "Production"),
      w.alice.choose(CHANNEL, ts, "US"),
      w.alice.choose(CHANNEL, ts, "Now"),
    ]);
    await w.alice.press(CHANNEL, ts, "Send");
    expect(await result).toEqual({
      status: "answered",
      answers: { answers: { env: ["Production"], regions: ["US"], window: ["Now"] } },
    });
    expect(w.alice.ephemerals()).toEqual([]);
  });

  it("a typed reply that answers every question answers the form, confirmed with a ✅", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, RELEASE);
    const sent = await w.alice.say(CHANNEL, "1: 1; 2: EU, US; 3: 2", { threadTs: ts });
    expect(await result).toEqual({
      status: "answered",
      answers: { answers: { env: ["Staging (Recommended)"], regions: ["EU", "US"], window: ["Tonight"] } },
    });
    await waitForConfirmation(w.slack, CHANNEL, sent.message.ts);
    await waitForText(
      w.slack,
      CHANNEL,
      ts,
      "✅ Env: Staging (Recommended) · Regions: EU, US · Window: Tonight — @alice",
    );
  });
});
