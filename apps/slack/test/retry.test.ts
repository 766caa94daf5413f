/**
 * What the plugin's app tries again (issue #13 left-over): a post whose connection failed is never sent
 * twice — it fails as `unreachable` and the question ends undeliverable — while edits are tried again,
 * and a rate-limited post waits for Slack's `Retry-After` and goes out once.
 */
import { createAskUser, createMemoryStore } from "@ask-user/core";
import { createMemoryCoordination } from "@ask-user/core/channel";
import type { FakeSlack } from "@ask-user/testkit/slack";
import { afterEach, describe, expect, it } from "vitest";
import { channelPlugin } from "../src/plugin.ts";
import { CHANNEL, callsOf, DEPLOY, fakeSlack, recordingLogger } from "./harness.ts";

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** The plugin's channel (its own app and WebClient, as a host runs it) with a broker; not initialized. */
async function plugin(slack: FakeSlack) {
  const logger = recordingLogger();
  const config = channelPlugin.readConfig({
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_APP_TOKEN: slack.appToken,
    SLACK_API_URL: slack.apiUrl,
  });
  const instance = await channelPlugin.create({
    config,
    logger,
    coordination: createMemoryCoordination(),
    instanceId: "a",
  });
  stops.push(() => instance.stop());
  const broker = createAskUser({ store: createMemoryStore(), channels: [instance], logger });
  stops.push(() => broker.close());
  return { instance, broker, logger };
}

const target = { target: { channel: "slack", conversation: CHANNEL } };

describe("the plugin's retries", () => {
  it("a prompt whose answer was lost is not posted again: the question ends undeliverable", async () => {
    const slack = await fakeSlack({ echoBotMessages: false });
    const { broker } = await plugin(slack);
    slack.failNext("chat.postMessage", { answerLost: true });
    const record = await broker.create(DEPLOY, target);
    expect(record.status).toBe("undeliverable");
    expect(record.error).toContain("Could not reach Slack for chat.postMessage: ");
    // Slack did post it (the answer never came back): one message, never a second with live buttons.
    expect(callsOf(slack, "chat.postMessage")).toHaveLength(1);
    expect(slack.messages(CHANNEL)).toHaveLength(1);
  });

  it("a 503 on a post is not retried either: it may have happened", async () => {
    const slack = await fakeSlack({ echoBotMessages: false });
    const { broker } = await plugin(slack);
    slack.failNext("chat.postMessage", { status: 503 });
    const record = await broker.create(DEPLOY, target);
    expect(record.error).toContain("Could not reach Slack for chat.postMessage: HTTP 503");
    expect(callsOf(slack, "chat.postMessage")).toHaveLength(1);
  });

  it("a rate-limited post waits for Retry-After and is posted once", async () => {
    const slack = await fakeSlack({ echoBotMessages: false });
    const { broker } = await plugin(slack);
    slack.failNext("chat.postMessage", { ratelimited: 1 });
    const started = Date.now();
    const record = await broker.create(DEPLOY, target);
    expect(record.status).toBe("pending");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(callsOf(slack, "chat.postMessage").map((c) => c.error)).toEqual(["ratelimited", undefined]);
    expect(slack.messages(CHANNEL)).toHaveLength(1);
  });

  it("a summary edit whose answer was lost, or that got a 503, is tried again: edits are safe to repeat", async () => {
    const slack = await fakeSlack({ echoBotMessages: false });
    const { broker, logger } = await plugin(slack);
    const record = await broker.create(DEPLOY, target);
    const ts = record.deliveries[0]?.messageId ?? "";
    slack.failNext("chat.update", { answerLost: true });
    slack.failNext("chat.update", { status: 503 });
    await broker.cancel(record.id);
    await broker.idle();
    expect(callsOf(slack, "chat.update").map((c) => c.error)).toEqual([
      "answer lost (done, then the connection was cut)",
      "HTTP 503",
      undefined,
    ]);
    expect(slack.message(CHANNEL, ts)?.text).toBe("✖ Deploy — cancelled");
    // Only the SDK's own line about each failed request: nothing was given up.
    expect(logger.lines.every((line) => line.startsWith("warn http request failed"))).toBe(true);
  });
});
