/** Slack's failures reach core as one `ChannelError`: refused, unreachable or rate-limited, Slack's words kept. */
import { AskUserError, ChannelError } from "@ask-user/core/channel";
import { describe, expect, it } from "vitest";
import { ALICE, ask, CHANNEL, DEPLOY, world } from "./harness.ts";

const notice = { conversation: CHANNEL, text: "Recorded: x", locale: "en" };

describe("platform failures", () => {
  it("Slack saying no is refused, with its error code; the question ends undeliverable saying so", async () => {
    const w = await world("socket");
    w.slack.failNext("chat.postMessage", { error: "not_in_channel" });
    const failure = w.slackChannel.notify(notice);
    await expect(failure).rejects.toBeInstanceOf(ChannelError);
    await expect(failure).rejects.toMatchObject({
      code: "channel_refused",
      failure: "refused",
      method: "chat.postMessage",
      status: "not_in_channel",
      message: "Slack refused chat.postMessage: not_in_channel",
    });
    w.slack.failNext("chat.postMessage", { error: "channel_not_found" });
    const record = await w.broker.create(DEPLOY, { target: { channel: "slack", conversation: CHANNEL } });
    expect(record.status).toBe("undeliverable");
    expect(record.error).toContain("Slack refused chat.postMessage: channel_not_found");
    w.slack.failNext("conversations.open", { error: "user_not_found" });
    await expect(w.slackChannel.notify({ ...notice, conversation: ALICE.id })).rejects.toMatchObject({
      failure: "refused",
      method: "conversations.open",
      status: "user_not_found",
    });
  });

  it("a dropped connection or a 5xx is unreachable (it may or may not have happened)", async () => {
    const w = await world("socket");
    const held = w.slack.hold("chat.postMessage");
    const dropped = w.slackChannel.notify(notice);
    dropped.catch(() => undefined);
    await w.slack.waitUntil(() => held.calls.length === 1);
    held.drop();
    await expect(dropped).rejects.toMatchObject({ failure: "unreachable", code: "channel_unreachable" });
    await expect(dropped).rejects.toThrow(/^Could not reach Slack for chat\.postMessage: /);

    w.slack.failNext("chat.postMessage", { status: 503 });
    await expect(w.slackChannel.notify(notice)).rejects.toMatchObject({
      failure: "unreachable",
      status: 503,
      message: "Could not reach Slack for chat.postMessage: HTTP 503",
    });
  });

  it("a rate limit is rate_limited with Slack's Retry-After, once the client's retries are spent", async () => {
    const w = await world("socket");
    w.slack.failNext("chat.postMessage", { ratelimited: 1 });
    await expect(w.slackChannel.notify(notice)).rejects.toMatchObject({
      code: "channel_rate_limited",
      failure: "rate_limited",
      retryAfterMs: 1000,
      status: 429,
      message: "Slack rate-limited chat.postMessage (retry after 1 s)",
    });
  });

  it("an edit of a message that is gone is done; any other refusal is an error", async () => {
    const w = await world("socket");
    const { record } = await ask(w, DEPLOY);
    const delivery = record.deliveries[0];
    if (!delivery) throw new Error("not delivered");
    const finalize = () =>
      w.slackChannel.finalize({ record, delivery, locale: "en", summary: "✖ Cancelled" });
    w.slack.failNext("chat.update", { error: "message_not_found" });
    await expect(finalize()).resolves.toBeUndefined();
    w.slack.failNext("chat.update", { error: "cant_update_message" });
    await expect(finalize()).rejects.toMatchObject({ failure: "refused", method: "chat.update" });
  });

  it("a conversation that is none is bad input, not a platform failure", async () => {
    const w = await world("socket");
    const failure = w.slackChannel.notify({ ...notice, conversation: "#general" });
    await expect(failure).rejects.toBeInstanceOf(AskUserError);
    await expect(failure).rejects.not.toBeInstanceOf(ChannelError);
    await expect(failure).rejects.toMatchObject({ code: "invalid_input" });
  });
});
