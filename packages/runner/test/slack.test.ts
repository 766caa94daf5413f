import { channelPlugin } from "@ask-user/slack/plugin";
import { createFakeSlack, type FakeSlack, type FakeSlackMessage } from "@ask-user/testkit/slack";
import { describe, expect, it } from "vitest";
import { onCleanup, run } from "./helpers.ts";

const CHANNEL = "C0GENERAL";
const ALICE = { id: "U0ALICE", name: "alice", display_name: "alice" };

async function fake(): Promise<FakeSlack> {
  const slack = await createFakeSlack();
  onCleanup(() => slack.close());
  return slack;
}

const socketEnv = (slack: FakeSlack) => ({
  SLACK_BOT_TOKEN: slack.botToken,
  SLACK_APP_TOKEN: slack.appToken,
  SLACK_API_URL: slack.apiUrl,
});

const hasButtons = (message: FakeSlackMessage | undefined) =>
  (message?.blocks ?? []).some((block) => block.type === "actions");

describe("ask-user-channel slack", () => {
  it("asks in a channel alone over Socket Mode, prints the answer and exits 0", async () => {
    const slack = await fake();
    const runner = await run(
      channelPlugin,
      ["--target", CHANNEL, "--creator", ALICE.id, "-"],
      socketEnv(slack),
    );
    const prompt = await slack.waitUntil(() => slack.messages(CHANNEL).find(hasButtons), 10_000);
    await slack.user(ALICE).press(CHANNEL, prompt.ts, "Production");
    expect(await runner.exit).toBe(0);
    expect(JSON.parse(runner.out())).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    await slack.waitUntil(() => slack.message(CHANNEL, prompt.ts)?.text === "✅ Deploy: Production — @alice");
    expect(runner.err()).toBe(`slack (@ask_user_bot, Socket Mode): waiting for an answer in ${CHANNEL}…\n`);
  });

  it("serves HTTP mode on SLACK_PORT itself and exits 3 when the person skips in a direct message", async () => {
    const slack = await fake();
    const runner = await run(channelPlugin, ["--target", ALICE.id, "-"], {
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_SIGNING_SECRET: slack.signingSecret,
      SLACK_API_URL: slack.apiUrl,
      SLACK_PORT: "0",
    });
    const served = await slack.waitUntil(
      () =>
        /slack: the webhook is served at (http:\/\/127\.0\.0\.1:\d+\/channels\/slack\/events) and /.exec(
          runner.err(),
        )?.[1],
      10_000,
    );
    slack.setRequestUrl(served);
    const dm = slack.dmOf(ALICE.id);
    const prompt = await slack.waitUntil(() => slack.messages(dm)[0], 10_000);
    await slack.user(ALICE).press(dm, prompt.ts, "Skip");
    expect(await runner.exit).toBe(3);
    expect(JSON.parse(runner.out())).toEqual({ status: "no_answer", reason: "skipped" });
    expect(slack.message(dm, prompt.ts)?.text).toBe("⏭ Deploy — skipped by @alice");
  });

  it("cancels the question on Ctrl-C and exits 130", async () => {
    const slack = await fake();
    const runner = await run(channelPlugin, ["--target", CHANNEL, "-"], socketEnv(slack));
    const prompt = await slack.waitUntil(() => slack.messages(CHANNEL)[0], 10_000);
    runner.interrupt();
    expect(await runner.exit).toBe(130);
    expect(JSON.parse(runner.out())).toEqual({ status: "no_answer", reason: "cancelled" });
    expect(slack.message(CHANNEL, prompt.ts)?.text).toBe("✖ Deploy — cancelled");
  });

  it("exits 2 for a bad target or bad input and 1 without a token or a mode", async () => {
    const slack = await fake();
    const target = await run(channelPlugin, ["--target", "#general", "-"], socketEnv(slack));
    expect(await target.exit).toBe(2);
    expect(target.err()).toMatch(
      /^--target #general is not a Slack conversation\.\n\nUsage: ask-user-channel slack /,
    );
    const input = await run(channelPlugin, ["--target", CHANNEL, "-"], socketEnv(slack), "{ not json");
    expect(await input.exit).toBe(2);
    expect(input.err()).toMatch(/^Cannot read stdin: /);
    const unset = await run(channelPlugin, ["--target", CHANNEL, "-"], { SLACK_PORT: "http" });
    expect(await unset.exit).toBe(1);
    expect(unset.err()).toMatch(/^ask-user slack: invalid configuration:\n- SLACK_BOT_TOKEN is required/);
    expect(unset.err()).toContain("- SLACK_PORT must be a port number.");
    expect(slack.calls).toEqual([]);
  });
});
