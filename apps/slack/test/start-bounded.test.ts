/**
 * Socket Mode's start is bounded: when `auth.test` went through but Slack cannot be reached when the app
 * connects (`apps.connections.open`), the start fails at once — the Socket Mode client's WebClient uses
 * `SLACK_RETRY_POLICY`, not its own default (100 tries, about 30 minutes) — so the host's supervisor can
 * try again. A later attempt connects.
 */
import { createAskUser, createMemoryStore } from "@ask-user/core";
import { createLink, type Link } from "@ask-user/testkit/link";
import { afterEach, describe, expect, it } from "vitest";
import { readSlackConfig } from "../src/config.ts";
import { channelPlugin } from "../src/plugin.ts";
import { fakeSlack, recordingLogger } from "./harness.ts";

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** The plugin's instance over `link` in front of the fake, and a broker for it. */
async function instanceBehind(link: Link, slack: Awaited<ReturnType<typeof fakeSlack>>) {
  const config = readSlackConfig({
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_APP_TOKEN: slack.appToken,
    SLACK_API_URL: link.url(new URL(slack.apiUrl).pathname),
  });
  const instance = await channelPlugin.create({
    config,
    logger: recordingLogger(),
    coordination: createMemoryStore(),
    instanceId: "bounded",
  });
  stops.push(() => instance.stop());
  const broker = createAskUser({ store: createMemoryStore(), channels: [instance] });
  stops.push(() => broker.close());
  return { instance, broker };
}

/** A start's outcome, and how long it took. */
async function timed(start: Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const began = Date.now();
  const error = await start.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  return { ms: Date.now() - began, error };
}

describe("Socket Mode start when Slack is unreachable", () => {
  it("fails within seconds when apps.connections.open cannot reach Slack, and a new attempt connects once it is back", async () => {
    const slack = await fakeSlack();
    const link = await createLink(slack.apiUrl);
    stops.push(() => link.close());
    const first = await instanceBehind(link, slack); // auth.test went through
    link.down({ cutOpen: true });
    const failed = await timed(first.instance.start(first.broker));
    expect(failed.error).toBeInstanceOf(Error);
    expect(failed.ms).toBeLessThan(5_000);
    expect(link.refused).toBeGreaterThanOrEqual(1);
    expect(slack.socketConnections()).toBe(0);

    link.up(slack.apiUrl);
    const second = await instanceBehind(link, slack);
    await second.instance.start(second.broker);
    expect(slack.socketConnections()).toBe(1);
  });

  it("fails at once on a 503 from apps.connections.open instead of trying it again for half an hour", async () => {
    const slack = await fakeSlack();
    const link = await createLink(slack.apiUrl);
    stops.push(() => link.close());
    const { instance, broker } = await instanceBehind(link, slack);
    slack.failNext("apps.connections.open", { status: 503 });
    const failed = await timed(instance.start(broker));
    expect(failed.error).toBeInstanceOf(Error);
    expect(failed.ms).toBeLessThan(5_000);
    expect(slack.calls.filter((c) => c.method === "apps.connections.open")).toHaveLength(1);
  });
});
