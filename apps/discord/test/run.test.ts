import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAskUser, createMemoryStore } from "@ask-user/core";
import { createFakeDiscord, type FakeDiscord } from "@ask-user/testkit/discord";
import { Events, Routes } from "discord.js";
import { afterEach, describe, expect, it } from "vitest";
import { main, readDiscordEnv, runDiscord } from "../src/index.ts";
import { DEPLOY } from "./harness.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fake(options: Parameters<typeof createFakeDiscord>[0] = {}): Promise<FakeDiscord> {
  const discord = await createFakeDiscord(options);
  cleanups.push(() => discord.close());
  return discord;
}

async function* chunks(...parts: string[]): AsyncGenerator<string> {
  yield* parts;
}

const quiet = { warn: () => undefined, error: () => undefined, info: () => undefined };

describe("runDiscord", () => {
  it("reads the environment and never echoes the token", () => {
    expect(() => readDiscordEnv({})).toThrow(/DISCORD_BOT_TOKEN is not set/);
    expect(
      readDiscordEnv({ DISCORD_BOT_TOKEN: " t0k ", DISCORD_API_URL: "http://127.0.0.1:9/api/" }),
    ).toEqual({
      token: "t0k",
      apiUrl: "http://127.0.0.1:9/api",
    });
    expect(() => readDiscordEnv({ DISCORD_BOT_TOKEN: "secret", DISCORD_API_URL: "ftp://x" })).toThrow(
      /^(?!.*secret).*must be an http/,
    );
  });

  it("logs in from the environment and asks through the gateway", async () => {
    const discord = await fake();
    let broker = createAskUser({ store: createMemoryStore(), channels: [] });
    const running = await runDiscord({
      env: { DISCORD_BOT_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl },
      broker: () => broker,
      logger: quiet,
    });
    cleanups.push(() => running.stop());
    broker = createAskUser({
      store: createMemoryStore(),
      channels: [running.channel],
      answerers: "conversation",
    });
    cleanups.push(() => broker.close());
    expect(running.describe).toBe("discord (@ask_user_bot, gateway)");
    expect(discord.sessions()[0]?.intents).toBe(1 | (1 << 9) | (1 << 12) | (1 << 15));

    const asked = broker.ask(DEPLOY, {
      target: { channel: "discord", conversation: discord.guild.channelId },
    });
    const prompt = await discord.waitUntil(() => discord.messages(discord.guild.channelId)[0]);
    discord
      .user({ id: "200000000000000001", username: "alice" })
      .click(discord.guild.channelId, prompt.id, "Production");
    expect(await asked).toMatchObject({ answers: { answers: { deploy_target: ["Production"] } } });
  });

  it("connects without Message Content when Discord refuses the privileged intent", async () => {
    const discord = await fake({ privilegedIntents: false });
    const warnings: string[] = [];
    const running = await runDiscord({
      env: { DISCORD_BOT_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl },
      broker: () => createAskUser({ store: createMemoryStore(), channels: [] }),
      logger: { ...quiet, warn: (_, message) => warnings.push(message) },
    });
    cleanups.push(() => running.stop());
    expect(running.describe).toBe("discord (@ask_user_bot, gateway, no Message Content intent)");
    expect(warnings.filter((w) => w.includes("Message Content"))).toHaveLength(1);
    expect(
      discord
        .sessions()
        .filter((s) => s.connected)
        .map((s) => s.intents & (1 << 15)),
    ).toEqual([0]);
  });

  it("acknowledges a button or modal that is not ask-user's and that no listener answered", async () => {
    const discord = await fake();
    const running = await runDiscord({
      env: { DISCORD_BOT_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl },
      broker: () => createAskUser({ store: createMemoryStore(), channels: [] }),
      logger: quiet,
      deferAfterMs: 300,
    });
    cleanups.push(() => running.stop());
    // A listener the host added to the runner's client opens its own modal; it never handles the submission.
    running.client.on(Events.InteractionCreate, async (interaction) => {
      if (!interaction.isButton() || interaction.customId !== "host:form") return;
      await interaction.showModal({
        custom_id: "host:form",
        title: "Feedback",
        components: [{ type: 1, components: [{ type: 4, custom_id: "text", style: 1, label: "Text" }] }],
      });
    });
    // The runner's client sends over REST (it re-emits the gateway connection's events).
    const channelId = discord.guild.channelId;
    const menu = (await running.client.rest.post(Routes.channelMessages(channelId), {
      body: {
        content: "An old menu",
        components: [
          {
            type: 1,
            components: [
              { type: 2, style: 2, label: "Old", custom_id: "gone:1" },
              { type: 2, style: 2, label: "Form", custom_id: "host:form" },
            ],
          },
        ],
      },
    })) as { id: string };
    const ada = discord.user({ id: "200000000000000001", username: "ada" });

    const old = ada.click(channelId, menu.id, "Old");
    const form = ada.click(channelId, menu.id, "Form");

    expect(await discord.waitForResponse(old)).toMatchObject({ type: 6 });
    expect((await discord.waitForResponse(form)).type).toBe(9);
    const submitted = ada.submitModal(form, "Nice");
    expect((await discord.waitForResponse(submitted)).type).toBe(6);
    expect(discord.message(channelId, menu.id)?.content).toBe("An old menu");
    expect(discord.calls.filter((c) => c.error?.code === 40060)).toEqual([]);
  });

  it("fails with a readable error for a wrong token", async () => {
    const discord = await fake();
    await expect(
      runDiscord({
        env: { DISCORD_BOT_TOKEN: "wrong", DISCORD_API_URL: discord.apiUrl },
        broker: () => createAskUser({ store: createMemoryStore(), channels: [] }),
        logger: quiet,
      }),
    ).rejects.toThrow(/token/i);
  });
});

describe("the standalone runner", () => {
  it("asks, prints the result and exits 3 when the user skips", async () => {
    const discord = await fake();
    const dir = await mkdtemp(join(tmpdir(), "ask-user-discord-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, "question.json");
    await writeFile(file, JSON.stringify(DEPLOY));
    let out = "";
    let err = "";
    const io = {
      stdout: { write: (text: string) => (out += text) },
      stderr: { write: (text: string) => (err += text) },
      stdin: chunks(),
      onInterrupt: () => () => undefined,
    };
    const env = {
      DISCORD_BOT_TOKEN: discord.token,
      DISCORD_API_URL: discord.apiUrl,
      ASK_USER_DB: join(dir, "discord.db"),
    };
    const user = { id: "200000000000000001", username: "alice" };
    discord.user(user);

    const running = main(["--target", `user:${user.id}`, "--creator", user.id, file], env, io);
    const dm = await discord.waitUntil(() => discord.dmChannelId(user.id), 10_000);
    const prompt = await discord.waitUntil(() => discord.messages(dm)[0]);
    discord.user(user).click(dm, prompt.id, "Skip");

    expect(await running).toBe(3);
    expect(JSON.parse(out)).toEqual({ status: "no_answer", reason: "skipped" });
    expect(err).toContain(
      "discord (@ask_user_bot, gateway): waiting for an answer in user:200000000000000001",
    );
    expect(err).not.toContain(discord.token);
  });

  it("exits 2 on a bad target or bad input, 1 without a token", async () => {
    let err = "";
    const io = () => ({
      stdout: { write: () => true },
      stderr: { write: (text: string) => (err += text) },
      stdin: chunks('{"questions": []}'),
      onInterrupt: () => () => undefined,
    });
    expect(await main(["--target", "general", "-"], {}, io())).toBe(2);
    expect(await main(["--target", "user:123456789012345678", "-"], {}, io())).toBe(1);
    const discord = await fake();
    const dir = await mkdtemp(join(tmpdir(), "ask-user-discord-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const env = {
      DISCORD_BOT_TOKEN: discord.token,
      DISCORD_API_URL: discord.apiUrl,
      ASK_USER_DB: join(dir, "d.db"),
    };
    expect(await main(["--target", discord.guild.channelId, "-"], env, io())).toBe(2);
    expect(err).toContain("questions");
  });
});
