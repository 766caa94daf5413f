import { decodeAction } from "@ask-user/core/channel";
import { describe, expect, it } from "vitest";
import { ANSWER_BLOCK_ID } from "../src/index.ts";
import {
  ALICE,
  actions,
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

describe.each(MODES)("buttons over %s", (mode) => {
  it.each([
    ["Staging (Recommended)", 0],
    ["Production", 1],
  ])("tapping %s answers and the message becomes the summary without buttons", async (label) => {
    const w = await world(mode);
    const { ts, result } = await ask(w, DEPLOY);
    const posted = w.slack.message(CHANNEL, ts);
    expect(posted?.text).toBe("Deploy: Where should I deploy the release?");
    expect(actions(posted)).toHaveLength(1);

    await w.alice.press(CHANNEL, ts, label);

    expect(await result).toEqual({ status: "answered", answers: { answers: { env: [label] } } });
    const summary = await waitForText(w.slack, CHANNEL, ts, `✅ Deploy: ${label} — @alice`);
    expect(actions(summary)).toEqual([]);
    await w.broker.idle();
    expect(callsOf(w.slack, "chat.update")).toHaveLength(1);
    expect(w.alice.ephemerals()).toEqual([]);
    expectAllAcked(w.slack);
  });

  it("Skip skips the question and says so in the message", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, DEPLOY);
    await w.alice.press(CHANNEL, ts, "Skip");
    expect(await result).toEqual({ status: "no_answer", reason: "skipped" });
    const summary = await waitForText(w.slack, CHANNEL, ts, "⏭ Deploy — skipped by @alice");
    expect(actions(summary)).toEqual([]);
    expectAllAcked(w.slack);
  });

  it("Other… opens a modal whose submission answers with the free text", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, DEPLOY);
    const tap = await w.alice.press(CHANNEL, ts, "Other…");
    const modal = await w.alice.waitForView();
    const open = callsOf(w.slack, "views.open")[0];
    expect(open?.params.trigger_id).toBe(tap.triggerId);
    expect(modal.view.title).toMatchObject({ text: "Other…" });
    expect(JSON.stringify(modal.view.blocks)).toContain("Where should I deploy the release?");

    const submitted = await w.alice.submit(modal.id, "Blue-green, please");
    expect(submitted.body ?? {}).toEqual({}); // an empty ack closes the modal
    expect(await result).toEqual({
      status: "answered",
      answers: { answers: { env: ["Blue-green, please"] } },
    });
    expect(w.slack.views().find((v) => v.id === modal.id)?.open).toBe(false);
    await waitForText(w.slack, CHANNEL, ts, "✅ Deploy: Blue-green, please — @alice");
    expectAllAcked(w.slack);
  });

  it("when the modal cannot open, Other… asks for a text reply instead", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, DEPLOY);
    w.slack.failNext("views.open", { error: "expired_trigger_id" });
    await w.alice.press(CHANNEL, ts, "Other…");
    expect((await w.alice.waitForEphemeral()).text).toBe("Type your answer as a reply.");
    await w.alice.say(CHANNEL, "My own way");
    expect(await result).toEqual({ status: "answered", answers: { answers: { env: ["My own way"] } } });
    expect(w.logger.lines.join("\n")).toContain("could not open the Other… modal");
  });

  it("an empty modal submission gets a field error and the question stays open", async () => {
    const w = await world(mode);
    const { record, ts, result } = await ask(w, DEPLOY);
    await w.alice.press(CHANNEL, ts, "Other…");
    const modal = await w.alice.waitForView();

    const empty = await w.alice.submit(modal.id, "   ");
    expect(empty.body).toEqual({
      response_action: "errors",
      errors: { [ANSWER_BLOCK_ID]: "The reply is empty." },
    });
    const view = w.slack.views().find((v) => v.id === modal.id);
    expect(view?.open).toBe(true);
    expect(view?.errors).toEqual({ [ANSWER_BLOCK_ID]: "The reply is empty." });
    expect((await w.broker.get(record.id))?.status).toBe("pending");
    expect(actions(w.slack.message(CHANNEL, ts))).toHaveLength(1);

    await w.alice.submit(modal.id, "Canary");
    expect(await result).toEqual({ status: "answered", answers: { answers: { env: ["Canary"] } } });
    expectAllAcked(w.slack);
  });

  it("another user's tap gets an ephemeral refusal and changes nothing", async () => {
    const w = await world(mode);
    const { record, ts } = await ask(w, DEPLOY);
    await w.bob.press(CHANNEL, ts, "Production");
    const refusal = await w.bob.waitForEphemeral();
    expect(refusal).toMatchObject({ channel: CHANNEL, text: "This question is for @U0ALICE." });
    await w.bob.press(CHANNEL, ts, "Other…");
    await w.bob.waitForEphemeral((e) => e !== refusal && e.at >= refusal.at);
    expect(w.bob.ephemerals()).toHaveLength(2);
    expect(w.slack.views()).toEqual([]);
    expect(w.alice.ephemerals()).toEqual([]);
    expect((await w.broker.get(record.id))?.status).toBe("pending");
    expect(w.slack.message(CHANNEL, ts)?.edits).toBe(0);
    expect(callsOf(w.slack, "chat.update")).toEqual([]);
    expectAllAcked(w.slack);
  });

  it("a tap on a message that was already answered is refused privately", async () => {
    const w = await world(mode);
    const { ts, result } = await ask(w, DEPLOY);
    const before = w.slack.message(CHANNEL, ts);
    const production = before?.blocks
      .flatMap((b) => (Array.isArray(b.elements) ? b.elements : []))
      .find((e) => (e as { text?: { text?: string } }).text?.text === "Production") as { action_id: string };
    await w.alice.press(CHANNEL, ts, "Staging (Recommended)");
    await result;
    await w.alice.click(CHANNEL, ts, production.action_id, { stale: true });
    const refusal = await w.alice.waitForEphemeral();
    expect(refusal.text).toBe("This question was already answered by @alice.");
    expect(decodeAction(production.action_id)?.action).toEqual({ kind: "option", index: 1 });
  });

  it("escapes agent text so that <!channel> and <@U…> mention nobody, and always sets the text", async () => {
    const w = await world(mode);
    const input = {
      questions: [
        {
          id: "who",
          header: "<!here>",
          question: "Ping <@U0BOB> & <!channel>?",
          options: [{ label: "<!channel> now", description: "tell <!everyone>" }, { label: "Later" }],
        },
      ],
    };
    const { ts, result } = await ask(w, input);
    const posted = w.slack.message(CHANNEL, ts);
    const raw = JSON.stringify(posted?.blocks);
    expect(posted?.text).toBe("&lt;!here&gt;: Ping &lt;@U0BOB&gt; &amp; &lt;!channel&gt;?");
    expect(raw).toContain("*&lt;!here&gt;*\\nPing &lt;@U0BOB&gt; &amp; &lt;!channel&gt;?");
    expect(raw).toContain("*&lt;!channel&gt; now* — tell &lt;!everyone&gt;");
    // mrkdwn is escaped; plain_text (button labels) is shown literally by Slack and never mentions.
    const mrkdwn = JSON.stringify(
      posted?.blocks.flatMap((b) => [b.text, ...(b.type === "context" ? (b.elements as unknown[]) : [])]),
    );
    expect(mrkdwn.replace(/<!date\^[^>]+>/g, "")).not.toMatch(/<[!@#]/);
    expect(mrkdwn).toMatch(/<!date\^\d+\^\{date_short_pretty\} \{time\}\|\d{4}-\d\d-\d\d \d\d:\d\d UTC>/);
    await w.alice.press(CHANNEL, ts, "<!channel> now");
    await result;
    const summary = await waitForText(
      w.slack,
      CHANNEL,
      ts,
      "✅ &lt;!here&gt;: &lt;!channel&gt; now — @alice",
    );
    expect(JSON.stringify(summary.blocks)).not.toContain("<!");
  });

  it("speaks German to a German user: modal and refusals", async () => {
    const w = await world(mode);
    const { ts } = await ask(w, DEPLOY, CHANNEL, w.greta.id);
    await w.bob.press(CHANNEL, ts, "Production");
    expect((await w.bob.waitForEphemeral()).text).toBe("This question is for @U0GRETA.");
    await w.greta.press(CHANNEL, ts, "Other…");
    const modal = await w.greta.waitForView();
    expect(modal.view.title).toMatchObject({ text: "Sonstiges…" });
    const empty = await w.greta.submit(modal.id, " ");
    expect(empty.body).toMatchObject({ errors: { [ANSWER_BLOCK_ID]: "Die Antwort ist leer." } });
    expect(callsOf(w.slack, "users.info").filter((c) => c.params.user === w.greta.id)).toHaveLength(1);
    expect(callsOf(w.slack, "users.info")[0]?.params.include_locale).toBe("true");
  });

  it("keeps the host app's own listeners working and does not pass answers on", async () => {
    const seen: string[] = [];
    const w = await world(mode, {
      host: (app) => {
        app.message(async ({ message, say }) => {
          const text = "text" in message ? String(message.text) : "";
          seen.push(text);
          if (text === "ping") await say("pong");
        });
        app.action("host_button", async ({ ack, respond }) => {
          await ack();
          await respond({ response_type: "ephemeral", text: "host got it" });
        });
      },
    });
    await w.alice.say("C0RANDOM", "ping");
    await w.slack.waitUntil(() => w.slack.messages("C0RANDOM").find((m) => m.text === "pong"));

    const hostMessage = await w.app.client.chat.postMessage({
      channel: "C0RANDOM",
      text: "host",
      blocks: [
        {
          type: "actions",
          elements: [
            { type: "button", action_id: "host_button", text: { type: "plain_text", text: "Host" } },
          ],
        },
      ],
    });
    await w.alice.press("C0RANDOM", String(hostMessage.ts), "Host");
    await w.alice.waitForEphemeral((e) => e.text === "host got it");

    const { ts, result } = await ask(w, DEPLOY);
    const answer = await w.alice.say(CHANNEL, "2", { threadTs: ts });
    await result;
    await waitForConfirmation(w.slack, CHANNEL, answer.message.ts);
    await w.alice.say(CHANNEL, "ping");
    await w.slack.waitUntil(() => w.slack.messages(CHANNEL).find((m) => m.text === "pong"));
    expect(seen).toEqual(["ping", "ping"]);
    expect(ALICE.id).toBe(w.alice.id);
    expectAllAcked(w.slack);
  });
});
