import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { api, appEndpoint, button, fakeSlack, payloadOf, scriptedEndpoint } from "./slack-harness.ts";

const C = "C0GENERAL";
const ALICE = { id: "U0ALICE", name: "alice" };
const BOB = { id: "U0BOB", name: "bob", display_name: "Bob B" };

function eventOf(body: string): Record<string, unknown> {
  return (JSON.parse(body) as { event: Record<string, unknown> }).event;
}

describe("fake Slack message text on the wire", () => {
  it.each([
    ["1 & <2> > 0", "1 &amp; &lt;2&gt; &gt; 0"],
    ["2️⃣", ":two:"],
    ["2⃣ #️⃣ 🔟 0️⃣", ":two: :hash: :keycap_ten: :zero:"],
    ["✅ done 👍🏽", ":white_check_mark: done :+1::skin-tone-4:"],
    ["@ask_user_bot 2", "<@U0FAKEBOT> 2"],
    ["2 @ask_user_bot", "2 <@U0FAKEBOT>"],
    [
      "ask @bob or @Bob B, not @carol or me@alice.dev",
      "ask <@U0BOB> or <@U0BOB>, not @carol or me@alice.dev",
    ],
    ["see https://x.dev/a?b=1&c=2 now", "see <https://x.dev/a?b=1&amp;c=2> now"],
    ["at 10:30: fine :not_an_emoji:", "at 10:30: fine :not_an_emoji:"],
    ["1: 2\n2: EU, Asia", "1: 2\n2: EU, Asia"],
  ])("a person typing %j arrives as %j", async (typed, wire) => {
    const slack = await fakeSlack();
    const received = await appEndpoint(slack);
    const alice = slack.user(ALICE);
    slack.user(BOB);
    const sent = await alice.say(C, typed);
    expect(eventOf(String(received[0]?.body)).text).toBe(wire);
    expect(sent.message.text).toBe(wire);
  });

  it("sends raw wire text as is", async () => {
    const slack = await fakeSlack();
    const received = await appEndpoint(slack);
    await slack.user(ALICE).say(C, "<@U0BOB|bob> in <#C1|general>", { raw: true });
    expect(eventOf(String(received[0]?.body)).text).toBe("<@U0BOB|bob> in <#C1|general>");
  });

  it("shows text as people see it: names for mentions, fallbacks for dates, labels for links", async () => {
    const slack = await fakeSlack();
    slack.user(ALICE);
    slack.user(BOB);
    expect(slack.display("This question is for <@U0ALICE>.")).toBe("This question is for @alice.");
    expect(slack.display("<@U0BOB> and <@U0FAKEBOT> and <@U0NOBODY>")).toBe(
      "@Bob B and @ask_user_bot and @U0NOBODY",
    );
    expect(slack.display("Expires at <!date^1767276300^{time}|14:05 UTC>.")).toBe("Expires at 14:05 UTC.");
    expect(slack.display("<!here> <#C1|general> <https://x.dev|docs> <https://y.dev>")).toBe(
      "@here #general docs https://y.dev",
    );
    expect(slack.display("&lt;!channel&gt; &amp;amp;")).toBe("<!channel> &amp;");
  });
});

describe("fake Slack redelivers events", () => {
  it("an event answered with an error comes again with X-Slack-Retry-Num, until acknowledged", async () => {
    const slack = await fakeSlack({ eventRetryDelaysMs: [0, 0, 0] });
    const received = await scriptedEndpoint(slack, (n) => ({ status: n < 2 ? 500 : 200 }));
    const first = await slack.user(ALICE).say(C, "hi");
    expect(first.delivery.status).toBe(500);
    await slack.waitUntil(() => received.length === 3);
    const ids = received.map((r) => (JSON.parse(r.body) as { event_id: string }).event_id);
    expect(new Set(ids).size).toBe(1);
    expect(received.map((r) => r.headers["x-slack-retry-num"])).toEqual([undefined, "1", "2"]);
    expect(received[1]?.headers["x-slack-retry-reason"]).toBe("http_error");
    await slack.waitUntil(() => slack.deliveries.length === 3);
    expect(slack.deliveries.map((d) => d.retryNum)).toEqual([undefined, 1, 2]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toHaveLength(3);
  });

  it("stops after the last retry", async () => {
    const slack = await fakeSlack({ eventRetryDelaysMs: [0, 0] });
    const received = await scriptedEndpoint(slack, () => ({ status: 503 }));
    await slack.user(ALICE).say(C, "hi");
    await slack.waitUntil(() => slack.deliveries.length === 3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received.map((r) => r.headers["x-slack-retry-num"])).toEqual([undefined, "1", "2"]);
  });

  it("an event not acknowledged within 3 s comes again while the first is still running", async () => {
    const slack = await fakeSlack({ eventRetryDelaysMs: [0] });
    const received = await scriptedEndpoint(slack, (n) => ({ delayMs: n === 0 ? 3500 : 0 }));
    const started = Date.now();
    const said = slack.user(ALICE).say(C, "slow");
    await slack.waitUntil(() => received.length === 2, 5000);
    expect(Date.now() - started).toBeLessThan(3400);
    expect(received[1]?.headers).toMatchObject({
      "x-slack-retry-num": "1",
      "x-slack-retry-reason": "http_timeout",
    });
    expect((await said).delivery.ms).toBeGreaterThanOrEqual(3000);
  });

  it("redelivers over Socket Mode with retry_attempt when the envelope was not acked in 3 s", async () => {
    const slack = await fakeSlack({ eventRetryDelaysMs: [0] });
    const opened = await api(slack, "apps.connections.open", {}, slack.appToken);
    const ws = new WebSocket(String(opened.body.url));
    const envelopes: Array<Record<string, unknown>> = [];
    ws.on("message", (data) => {
      const message = JSON.parse(String(data)) as Record<string, unknown>;
      if (typeof message.envelope_id !== "string") return;
      envelopes.push(message);
      // The first envelope is never acked; the redelivery is.
      if (envelopes.length > 1) ws.send(JSON.stringify({ envelope_id: message.envelope_id }));
    });
    await slack.waitUntil(() => slack.socketConnections() === 1);
    void slack.user(ALICE).say(C, "hi");
    await slack.waitUntil(() => envelopes.length === 2, 5000);
    expect(envelopes.map((e) => [e.retry_attempt, e.retry_reason])).toEqual([
      [0, ""],
      [1, "timeout"],
    ]);
    const payloads = envelopes.map((e) => e.payload as { event_id: string });
    expect(payloads[1]?.event_id).toBe(payloads[0]?.event_id);
    ws.close();
    await slack.waitUntil(() => slack.socketConnections() === 0);
  });
});

describe("fake Slack modals closed without submitting", () => {
  async function modal(notifyOnClose: boolean) {
    const slack = await fakeSlack({ echoBotMessages: false });
    const received = await appEndpoint(slack);
    const posted = await api(slack, "chat.postMessage", {
      channel: C,
      text: "q",
      blocks: [{ type: "actions", elements: [button("Go", "go")] }],
    });
    const alice = slack.user(ALICE);
    const tap = await alice.press(C, String(posted.body.ts), "Go");
    const view = {
      type: "modal",
      callback_id: "cb",
      title: { type: "plain_text", text: "T" },
      ...(notifyOnClose ? { notify_on_close: true } : {}),
      blocks: [{ type: "section", text: { type: "mrkdwn", text: "hi" } }],
    };
    const opened = await api(slack, "views.open", { trigger_id: tap.triggerId, view });
    return { slack, alice, received, id: String((opened.body.view as { id: string }).id) };
  }

  it("tells the app nothing unless the view asked for notify_on_close", async () => {
    const { slack, alice, received, id } = await modal(false);
    expect(await alice.dismiss(id)).toBeUndefined();
    expect(slack.views()[0]?.open).toBe(false);
    expect(received).toHaveLength(1); // the tap only
    await expect(alice.dismiss(id)).rejects.toThrow(/no open view/);
  });

  it("sends view_closed when the view was opened with notify_on_close", async () => {
    const { alice, received, id } = await modal(true);
    const closed = await alice.dismiss(id);
    expect(closed).toMatchObject({ type: "view_closed", status: 200 });
    expect(payloadOf(String(received[1]?.body))).toMatchObject({
      type: "view_closed",
      user: { id: ALICE.id },
      view: { id, callback_id: "cb" },
      is_cleared: false,
    });
  });
});
