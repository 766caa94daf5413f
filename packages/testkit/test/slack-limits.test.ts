import { describe, expect, it } from "vitest";
import { slackLimits } from "../src/slack/index.ts";
import { api, appEndpoint, button, fakeSlack } from "./slack-harness.ts";

const C = "C0GENERAL";
const section = (text: string) => ({ type: "section", text: { type: "mrkdwn", text } });
const actions = (...elements: unknown[]) => ({ type: "actions", elements });

async function post(blocks: unknown[]) {
  const slack = await fakeSlack();
  return (await api(slack, "chat.postMessage", { channel: C, text: "fallback", blocks })).body;
}

describe("fake Slack Block Kit limits", () => {
  it.each([
    [
      "button text",
      [actions(button("x".repeat(75), "a"))],
      [actions(button("x".repeat(76), "a"))],
      "/blocks/0/elements/0/text/text",
      76,
    ],
    [
      "action_id",
      [actions(button("ok", "a".repeat(255)))],
      [actions(button("ok", "a".repeat(256)))],
      "/blocks/0/elements/0/action_id",
      256,
    ],
    [
      "button value",
      [actions(button("ok", "a", "v".repeat(2000)))],
      [actions(button("ok", "a", "v".repeat(2001)))],
      "/blocks/0/elements/0/value",
      2001,
    ],
    ["section text", [section("s".repeat(3000))], [section("s".repeat(3001))], "/blocks/0/text/text", 3001],
  ])(
    "refuses a %s over the limit with invalid_blocks and a json-pointer",
    async (_what, fits, over, pointer, bound) => {
      expect(await post(fits)).toMatchObject({ ok: true });
      const refused = await post(over);
      expect(refused).toMatchObject({
        ok: false,
        error: "invalid_blocks",
        errors: [`must be less than ${bound} characters [json-pointer:${pointer}]`],
        response_metadata: {
          messages: [`[ERROR] must be less than ${bound} characters [json-pointer:${pointer}]`],
        },
      });
    },
  );

  it("allows 25 elements per actions block and 50 blocks per message, not more", async () => {
    const buttons = (n: number) => Array.from({ length: n }, (_, i) => button(`b${i}`, `a${i}`));
    expect(await post([actions(...buttons(25))])).toMatchObject({ ok: true });
    expect(await post([actions(...buttons(26))])).toMatchObject({
      error: "invalid_blocks",
      errors: ["must be less than 26 items [json-pointer:/blocks/0/elements]"],
    });
    const blocks = (n: number) => Array.from({ length: n }, (_, i) => section(`s${i}`));
    expect(await post(blocks(slackLimits.MESSAGE_BLOCKS_MAX))).toMatchObject({ ok: true });
    expect(await post(blocks(51))).toMatchObject({
      errors: ["must be less than 51 items [json-pointer:/blocks]"],
    });
  });

  it("refuses duplicate action_ids in a block, empty texts, unknown types and input blocks in messages", async () => {
    const refused = await post([
      actions(button("a", "same"), button("b", "same")),
      section(""),
      { type: "carousel" },
      {
        type: "input",
        label: { type: "plain_text", text: "L" },
        element: { type: "plain_text_input", action_id: "i" },
      },
    ]);
    expect(refused.error).toBe("invalid_blocks");
    expect(refused.errors).toEqual([
      'duplicate action_id "same" [json-pointer:/blocks/0/elements/1/action_id]',
      "must be more than 0 characters [json-pointer:/blocks/1/text/text]",
      'unsupported type "carousel" [json-pointer:/blocks/2/type]',
      "input blocks are only allowed in modals [json-pointer:/blocks/3]",
    ]);
    const mrkdwnButton = await post([
      actions({ ...button("x", "y"), text: { type: "mrkdwn", text: "*x*" } }),
    ]);
    expect(mrkdwnButton.errors).toEqual([
      "must be a valid enum value [json-pointer:/blocks/0/elements/0/text/type]",
    ]);
  });

  it("needs text or blocks, refuses over-long text and unparseable blocks", async () => {
    const slack = await fakeSlack();
    expect((await api(slack, "chat.postMessage", { channel: C })).body).toEqual({
      ok: false,
      error: "no_text",
    });
    expect((await api(slack, "chat.postMessage", { channel: C, text: "x".repeat(40_001) })).body.error).toBe(
      "msg_too_long",
    );
    expect((await api(slack, "chat.postMessage", { channel: C, text: "x", blocks: "[{" })).body.error).toBe(
      "invalid_blocks_format",
    );
    expect((await api(slack, "chat.postMessage", { channel: "#general", text: "x" })).body.error).toBe(
      "channel_not_found",
    );
    expect((await api(slack, "chat.postMessage", { channel: "D0NOTOPEN", text: "x" })).body.error).toBe(
      "channel_not_found",
    );
  });
});

describe("fake Slack modals", () => {
  const modal = (overrides: Record<string, unknown> = {}) => ({
    type: "modal",
    title: { type: "plain_text", text: "T" },
    submit: { type: "plain_text", text: "OK" },
    blocks: [
      {
        type: "input",
        block_id: "b",
        label: { type: "plain_text", text: "Answer" },
        element: { type: "plain_text_input", action_id: "a", multiline: true, max_length: 3000 },
      },
    ],
    ...overrides,
  });

  async function withTrigger(now: { ms: number }) {
    const slack = await fakeSlack({ now: () => now.ms });
    await appEndpoint(slack);
    const posted = await api(slack, "chat.postMessage", {
      channel: C,
      text: "q",
      blocks: [actions(button("Go", "go"))],
    });
    const alice = slack.user({ id: "U0ALICE", name: "alice" });
    const tap = await alice.click(C, String(posted.body.ts), "go");
    return { slack, alice, triggerId: tap.triggerId };
  }

  it("opens a modal with a fresh trigger_id once, and refuses expired or unknown ones", async () => {
    const now = { ms: Date.now() };
    const { slack, triggerId } = await withTrigger(now);
    const opened = await api(slack, "views.open", { trigger_id: triggerId, view: modal() });
    expect(opened.body).toMatchObject({ ok: true, view: { type: "modal", state: { values: {} } } });
    expect((await api(slack, "views.open", { trigger_id: triggerId, view: modal() })).body.error).toBe(
      "exchanged_trigger_id",
    );
    expect((await api(slack, "views.open", { trigger_id: "1.2.3", view: modal() })).body.error).toBe(
      "invalid_trigger_id",
    );

    const late = await withTrigger(now);
    now.ms += slackLimits.TRIGGER_ID_TTL_MS + 1;
    expect(
      (await api(late.slack, "views.open", { trigger_id: late.triggerId, view: modal() })).body.error,
    ).toBe("expired_trigger_id");
  });

  it("enforces title, submit and close ≤ 24, private_metadata ≤ 3000, input max_length ≤ 3000", async () => {
    const { slack, triggerId } = await withTrigger({ ms: Date.now() });
    const input = {
      type: "input",
      block_id: "b",
      label: { type: "plain_text", text: "Answer" },
      element: { type: "plain_text_input", action_id: "a", max_length: 3001 },
    };
    const refused = await api(slack, "views.open", {
      trigger_id: triggerId,
      view: modal({
        title: { type: "plain_text", text: "t".repeat(25) },
        submit: { type: "plain_text", text: "s".repeat(25) },
        close: { type: "plain_text", text: "c".repeat(25) },
        private_metadata: "m".repeat(3001),
        blocks: [input],
      }),
    });
    expect(refused.body).toMatchObject({ ok: false, error: "invalid_arguments" });
    expect(refused.body.errors).toEqual([
      "must be less than 25 characters [json-pointer:/view/title/text]",
      "must be less than 25 characters [json-pointer:/view/submit/text]",
      "must be less than 25 characters [json-pointer:/view/close/text]",
      "must be less than 3001 characters [json-pointer:/view/private_metadata]",
      "must be an integer from 1 to 3000 [json-pointer:/view/blocks/0/element/max_length]",
    ]);
    const noSubmit = await api(slack, "views.open", {
      trigger_id: triggerId,
      view: modal({ submit: undefined }),
    });
    expect(noSubmit.body.errors).toEqual([
      "must provide submit when the view has input blocks [json-pointer:/view/submit]",
    ]);
    // A refused view does not use up the trigger.
    expect((await api(slack, "views.open", { trigger_id: triggerId, view: modal() })).body.ok).toBe(true);
  });
});

describe("fake Slack Web API", () => {
  it("checks tokens: missing, wrong, and the wrong kind", async () => {
    const slack = await fakeSlack();
    expect((await api(slack, "auth.test", {}, null)).body).toEqual({ ok: false, error: "not_authed" });
    expect((await api(slack, "auth.test", {}, "xoxb-nope")).body.error).toBe("invalid_auth");
    expect((await api(slack, "auth.test", {}, slack.appToken)).body.error).toBe("not_allowed_token_type");
    expect((await api(slack, "apps.connections.open", {}, slack.botToken)).body.error).toBe(
      "not_allowed_token_type",
    );
    expect((await api(slack, "auth.test")).body).toMatchObject({
      ok: true,
      user_id: "U0FAKEBOT",
      bot_id: "B0FAKEBOT",
    });
    expect((await api(slack, "chat.scheduleMessage")).body.error).toBe("unknown_method");
  });

  it("fails on demand: platform errors, ratelimited with Retry-After, HTTP errors", async () => {
    const slack = await fakeSlack();
    slack.failNext("chat.postMessage", { ratelimited: 7 });
    slack.failNext("chat.postMessage", { error: "not_in_channel" });
    slack.failNext("chat.postMessage", { status: 503 });
    const limited = await api(slack, "chat.postMessage", { channel: C, text: "x" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(limited.body).toEqual({ ok: false, error: "ratelimited" });
    expect((await api(slack, "chat.postMessage", { channel: C, text: "x" })).body.error).toBe(
      "not_in_channel",
    );
    expect((await api(slack, "chat.postMessage", { channel: C, text: "x" })).status).toBe(503);
    expect((await api(slack, "chat.postMessage", { channel: C, text: "x" })).body.ok).toBe(true);
    expect(slack.calls.map((c) => c.error)).toEqual(["ratelimited", "not_in_channel", "HTTP 503", undefined]);
  });

  it("updates messages as Slack does: text alone drops the blocks, nothing is refused, others' messages too", async () => {
    const slack = await fakeSlack();
    const posted = await api(slack, "chat.postMessage", {
      channel: C,
      text: "q",
      blocks: [actions(button("Go", "go"))],
    });
    const ts = String(posted.body.ts);
    expect((await api(slack, "chat.update", { channel: C, ts })).body.error).toBe("no_text");
    expect((await api(slack, "chat.update", { channel: C, ts: "1.000001", text: "x" })).body.error).toBe(
      "message_not_found",
    );
    await api(slack, "chat.update", { channel: C, ts, text: "done" });
    expect(slack.message(C, ts)).toMatchObject({ text: "done", blocks: [], edits: 1 });
    const mine = await slack
      .user({ id: "U0ALICE", name: "alice" })
      .say(C, "hello")
      .catch(() => undefined);
    expect(mine).toBeUndefined(); // no app connected: the fake cannot deliver the event
    const userMessage = slack.messages(C).find((m) => m.text === "hello");
    expect(
      (await api(slack, "chat.update", { channel: C, ts: String(userMessage?.ts), text: "x" })).body.error,
    ).toBe("cant_update_message");
  });

  it("opens DMs, posts to them, and answers users.info with the locale only when asked", async () => {
    const slack = await fakeSlack();
    slack.user({ id: "U0GRETA", name: "greta", display_name: "Greta", locale: "de-DE" });
    const opened = await api(slack, "conversations.open", { users: "U0GRETA" });
    expect(opened.body).toEqual({ ok: true, channel: { id: "D0GRETA" } });
    expect((await api(slack, "chat.postMessage", { channel: "D0GRETA", text: "hi" })).body.channel).toBe(
      "D0GRETA",
    );
    const info = await api(slack, "users.info", { user: "U0GRETA", include_locale: true });
    expect(info.body.user).toMatchObject({
      name: "greta",
      locale: "de-DE",
      profile: { display_name: "Greta" },
    });
    expect((await api(slack, "users.info", { user: "U0GRETA" })).body.user).not.toHaveProperty("locale");
    expect((await api(slack, "users.info", { user: "U0NOBODY" })).body.error).toBe("user_not_found");
  });
});
