import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type AskUserBroker, createAskUser, createMemoryStore } from "@ask-user/core";
import { signedHeaders } from "@ask-user/testkit/slack";
import { afterEach, describe, expect, it } from "vitest";
import { type MainIo, main, readSlackEnv, runSlack } from "../src/index.ts";
import { ALICE, actions, CHANNEL, fakeSlack, recordingLogger, waitForText } from "./harness.ts";

const EXAMPLE = fileURLToPath(new URL("../../../examples/deploy-target.json", import.meta.url));
const dirs: string[] = [];

afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function tempDb(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ask-user-slack-"));
  dirs.push(dir);
  return join(dir, "slack.db");
}

function io(stdin = ""): MainIo & { output: string[]; errors: string[] } {
  const output: string[] = [];
  const errors: string[] = [];
  return {
    output,
    errors,
    out: (text) => output.push(text),
    err: (text) => errors.push(text),
    stdin: async () => stdin,
  };
}

describe("readSlackEnv", () => {
  it("needs the bot token and one of the app token or the signing secret", () => {
    expect(() => readSlackEnv({})).toThrow("SLACK_BOT_TOKEN is required");
    expect(() => readSlackEnv({ SLACK_BOT_TOKEN: "xoxb-1" })).toThrow(
      /SLACK_APP_TOKEN .* or SLACK_SIGNING_SECRET/,
    );
    expect(() =>
      readSlackEnv({ SLACK_BOT_TOKEN: "x", SLACK_SIGNING_SECRET: "s", SLACK_PORT: "http" }),
    ).toThrow("SLACK_PORT must be a port number.");
  });

  it("prefers Socket Mode and defaults the HTTP port to 3000", () => {
    expect(readSlackEnv({ SLACK_BOT_TOKEN: "b", SLACK_APP_TOKEN: "a", SLACK_SIGNING_SECRET: "s" })).toEqual({
      botToken: "b",
      appToken: "a",
      port: 3000,
      host: "127.0.0.1",
    });
    expect(
      readSlackEnv({ SLACK_BOT_TOKEN: "b", SLACK_SIGNING_SECRET: "s", SLACK_API_URL: "http://x/api" }),
    ).toEqual({
      botToken: "b",
      signingSecret: "s",
      port: 3000,
      host: "127.0.0.1",
      apiUrl: "http://x/api/",
    });
  });
});

describe("runSlack", () => {
  it("starts in Socket Mode from the environment, checks the token, and never shows it", async () => {
    const slack = await fakeSlack();
    let broker: AskUserBroker | undefined;
    const running = await runSlack({
      env: { SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl },
      broker: () => broker as AskUserBroker,
      logger: recordingLogger(),
    });
    try {
      broker = createAskUser({
        store: createMemoryStore(),
        channels: [running.channel],
        answerers: "conversation",
      });
      expect(running.describe).toBe("slack (@ask_user_bot, Socket Mode)");
      expect(slack.socketConnections()).toBe(1);
      const record = await broker.create(
        {
          questions: [
            { id: "q", header: "Q", question: "Go?", options: [{ label: "Yes" }, { label: "No" }] },
          ],
        },
        { target: { channel: "slack", conversation: CHANNEL } },
      );
      const ts = record.deliveries[0]?.messageId ?? "";
      await slack.user(ALICE).press(CHANNEL, ts, "No");
      expect(await broker.wait(record.id)).toEqual({
        status: "answered",
        answers: { answers: { q: ["No"] } },
      });
      await waitForText(slack, CHANNEL, ts, "✅ Q: No — @alice");
    } finally {
      await broker?.close();
      await running.stop();
    }
    expect(slack.calls[0]?.method).toBe("auth.test");
    expect(slack.calls.filter((c) => c.method === "auth.test")).toHaveLength(1);
  });

  it("starts in HTTP mode on SLACK_PORT with listen (the standalone runner), at /channels/slack/events and Bolt's old /slack/events", async () => {
    const slack = await fakeSlack();
    const running = await runSlack({
      env: {
        SLACK_BOT_TOKEN: slack.botToken,
        SLACK_SIGNING_SECRET: slack.signingSecret,
        SLACK_API_URL: slack.apiUrl,
        SLACK_PORT: "0",
        SLACK_HOST: "127.0.0.1",
      },
      broker: () => {
        throw new Error("unused");
      },
      listen: true,
    });
    try {
      const port = /HTTP on :(\d+)\/channels\/slack\/events\)$/.exec(running.describe)?.[1];
      expect(Number(port)).toBeGreaterThan(0);
      for (const path of ["/channels/slack/events", "/slack/events"]) {
        slack.setRequestUrl(`http://127.0.0.1:${port}${path}`);
        expect((await slack.deliverHttp({ type: "url_verification", challenge: path })).body).toEqual({
          challenge: path,
        });
      }
      slack.setRequestUrl(`http://127.0.0.1:${port}/elsewhere`);
      expect((await slack.deliverHttp({ type: "url_verification", challenge: "c" })).status).toBe(404);
    } finally {
      await running.stop();
    }
  });

  it("opens no port in HTTP mode without listen: the returned handler checks the signature and answers Slack", async () => {
    const slack = await fakeSlack();
    const ignored = await freePort();
    const logger = recordingLogger();
    const running = await runSlack({
      env: {
        SLACK_BOT_TOKEN: slack.botToken,
        SLACK_SIGNING_SECRET: slack.signingSecret,
        SLACK_API_URL: slack.apiUrl,
        SLACK_PORT: String(ignored),
      },
      broker: () => {
        throw new Error("unused");
      },
      logger,
    });
    try {
      expect(running.describe).toBe("slack (@ask_user_bot, HTTP at /channels/slack/events)");
      await expect(fetch(`http://127.0.0.1:${ignored}/channels/slack/events`)).rejects.toThrow();
      expect(logger.lines).toEqual([
        expect.stringMatching(/^warn SLACK_PORT apply to the standalone runner only/),
      ]);
      const webhook = running.webhook as NonNullable<typeof running.webhook>;
      const url = "https://gw.example.com/channels/slack/events";
      const body = JSON.stringify({ type: "url_verification", challenge: "hello", token: "t" });
      const now = Math.floor(Date.now() / 1000);
      const post = (headers: Record<string, string>) =>
        webhook(new Request(url, { method: "POST", headers, body }));
      const good = await post(signedHeaders(slack.signingSecret, now, body, "json"));
      expect(good.status).toBe(200);
      expect(await good.json()).toEqual({ challenge: "hello" });
      expect((await post(signedHeaders("not-the-secret", now, body, "json"))).status).toBe(401);
      expect((await post(signedHeaders(slack.signingSecret, now - 301, body, "json"))).status).toBe(401);
      expect((await post({ "content-type": "application/json" })).status).toBe(401);
      expect((await webhook(new Request(url))).status).toBe(405);
    } finally {
      await running.stop();
    }
  });

  it.each(["http", "socket"] as const)(
    "acknowledges taps nobody handles at once, and leaves taps its listeners handle to them (%s)",
    async (mode) => {
      const slack = await fakeSlack({ echoBotMessages: false });
      const logger = recordingLogger();
      const running = await runSlack({
        env: {
          SLACK_BOT_TOKEN: slack.botToken,
          SLACK_API_URL: slack.apiUrl,
          ...(mode === "socket"
            ? { SLACK_APP_TOKEN: slack.appToken }
            : { SLACK_SIGNING_SECRET: slack.signingSecret, SLACK_PORT: "0" }),
        },
        broker: () => {
          throw new Error("unused");
        },
        logger,
        listen: true,
      });
      try {
        const port = /HTTP on :(\d+)\//.exec(running.describe)?.[1];
        if (port) slack.setRequestUrl(`http://127.0.0.1:${port}/channels/slack/events`);
        running.app.action("mine", async ({ ack, respond }) => {
          await ack();
          await respond({ response_type: "ephemeral", text: "handled" });
        });
        const button = (text: string, id: string) => ({
          type: "button" as const,
          text: { type: "plain_text" as const, text },
          action_id: id,
        });
        const posted = await running.app.client.chat.postMessage({
          channel: CHANNEL,
          text: "another app's buttons",
          blocks: [{ type: "actions", elements: [button("Theirs", "theirs"), button("Mine", "mine")] }],
        });
        const alice = slack.user(ALICE);
        const theirs = await alice.press(CHANNEL, String(posted.ts), "Theirs");
        expect(theirs.status).toBe(200);
        expect(theirs.ms).toBeLessThan(1000);
        const mine = await alice.press(CHANNEL, String(posted.ts), "Mine");
        expect(mine.status).toBe(200);
        await alice.waitForEphemeral((e) => e.text === "handled");
        expect(alice.ephemerals()).toHaveLength(1);
        expect(logger.lines).toEqual([]);
      } finally {
        await running.stop();
      }
    },
  );

  it("refuses a bad bot token before starting", async () => {
    const slack = await fakeSlack();
    await expect(
      runSlack({
        env: { SLACK_BOT_TOKEN: "xoxb-wrong", SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl },
        broker: () => {
          throw new Error("unused");
        },
      }),
    ).rejects.toThrow(/invalid_auth/);
    expect(slack.socketConnections()).toBe(0);
  });
});

describe("the standalone runner", () => {
  it("asks the file's question in Slack alone and prints the answer (exit 0)", async () => {
    const slack = await fakeSlack();
    const env = {
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_APP_TOKEN: slack.appToken,
      SLACK_API_URL: slack.apiUrl,
      ASK_USER_DB: await tempDb(),
    };
    const streams = io();
    const running = main(["--target", CHANNEL, "--creator", ALICE.id, EXAMPLE], env, streams);
    const prompt = await slack.waitUntil(
      () => slack.messages(CHANNEL).find((m) => actions(m).length > 0),
      5000,
    );
    await slack.user(ALICE).press(CHANNEL, prompt.ts, "Production");
    expect(await running).toBe(0);
    expect(JSON.parse(streams.output.join(""))).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(slack.message(CHANNEL, prompt.ts)?.text).toBe("✅ Deploy: Production — @alice");
    expect(streams.errors).toEqual(["slack (@ask_user_bot, Socket Mode) is waiting for an answer\n"]);
  });

  it("exits 3 when the question is skipped, reading the input from stdin (HTTP mode)", async () => {
    const slack = await fakeSlack();
    const env = {
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_SIGNING_SECRET: slack.signingSecret,
      SLACK_API_URL: slack.apiUrl,
      SLACK_PORT: "0",
      ASK_USER_DB: await tempDb(),
    };
    const input = {
      questions: [{ id: "q", header: "Q", question: "Go?", options: [{ label: "Yes" }, { label: "No" }] }],
    };
    const streams = io(JSON.stringify(input));
    const running = main(["--target", ALICE.id, "-"], env, streams);
    const port = await slack.waitUntil(
      () => /HTTP on :(\d+)\/channels\/slack\/events/.exec(streams.errors.join(""))?.[1],
      5000,
    );
    slack.setRequestUrl(`http://127.0.0.1:${port}/channels/slack/events`);
    const dm = slack.dmOf(ALICE.id);
    const prompt = await slack.waitUntil(() => slack.messages(dm)[0], 5000);
    await slack.user(ALICE).press(dm, prompt.ts, "Skip");
    expect(await running).toBe(3);
    expect(JSON.parse(streams.output.join(""))).toEqual({ status: "no_answer", reason: "skipped" });
    expect(slack.message(dm, prompt.ts)?.text).toBe("⏭ Skipped — @alice");
  });

  it("cancels the question on Ctrl-C and exits 130", async () => {
    const slack = await fakeSlack();
    const env = {
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_APP_TOKEN: slack.appToken,
      SLACK_API_URL: slack.apiUrl,
      ASK_USER_DB: await tempDb(),
    };
    const streams = io();
    const controller = new AbortController();
    const running = main(["--target", CHANNEL, EXAMPLE], env, { ...streams, signal: controller.signal });
    const prompt = await slack.waitUntil(() => slack.messages(CHANNEL)[0], 5000);
    controller.abort();
    expect(await running).toBe(130);
    expect(JSON.parse(streams.output.join(""))).toEqual({ status: "no_answer", reason: "cancelled" });
    expect(slack.message(CHANNEL, prompt.ts)?.text).toBe("✖ Cancelled");
  });

  it("exits 2 on bad usage or bad input", async () => {
    const usage = io();
    expect(await main([], {}, usage)).toBe(2);
    expect(usage.errors.join("")).toContain("usage:");
    const bad = io("{ not json");
    expect(await main(["--target", CHANNEL, "-"], {}, bad)).toBe(2);
    expect(bad.errors.join("")).toContain("Cannot read stdin");
  });
});
