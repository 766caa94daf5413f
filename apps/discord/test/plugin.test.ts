/**
 * The Discord channel as a host runs it (`@ask-user/discord/plugin`): variables, config problems, a light
 * module, create → initialize → stop against the fake with the real discord.js, and the banner line.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type ChannelInstance, createAskUser, createMemoryStore, isChannelPlugin } from "@ask-user/core";
import {
  type AskUserBroker,
  ChannelError,
  type ChannelLogger,
  createMemoryCoordination,
  InvalidChannelConfigError,
} from "@ask-user/core/channel";
import { createFakeDiscord, type FakeDiscord, type FakeDiscordOptions } from "@ask-user/testkit/discord";
import { REST, Routes } from "discord.js";
import { afterEach, describe, expect, it } from "vitest";
import { channelPlugin } from "../src/plugin.ts";
import { ALICE, DEPLOY } from "./harness.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const quiet: ChannelLogger = { warn: () => undefined, error: () => undefined, info: () => undefined };

async function fake(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const discord = await createFakeDiscord(options);
  cleanups.push(() => discord.close());
  return discord;
}

const envOf = (discord: FakeDiscord) => ({
  DISCORD_BOT_TOKEN: discord.token,
  DISCORD_API_URL: discord.apiUrl,
});

/** `create` as a host calls it; stopped after the test. */
async function create(discord: FakeDiscord, logger: ChannelLogger = quiet): Promise<ChannelInstance> {
  const config = channelPlugin.readConfig(envOf(discord));
  const instance = await channelPlugin.create({
    config,
    logger,
    coordination: createMemoryCoordination(),
    instanceId: "test",
  });
  cleanups.push(() => instance.stop());
  return instance;
}

function brokerFor(instance: ChannelInstance): AskUserBroker {
  const broker = createAskUser({
    store: createMemoryStore(),
    channels: [instance],
    answerers: "conversation",
    logger: quiet,
  });
  cleanups.push(() => broker.close());
  return broker;
}

const connected = (discord: FakeDiscord) => discord.sessions().filter((s) => s.connected).length;

describe("the plugin", () => {
  it("names its variables, is on when the token is set, and reads conversations", () => {
    expect(isChannelPlugin(channelPlugin)).toBe(true);
    expect([channelPlugin.name, channelPlugin.title]).toEqual(["discord", "Discord"]);
    expect(channelPlugin.variables.map((v) => [v.name, v.required ?? false, v.secret ?? false])).toEqual([
      ["DISCORD_BOT_TOKEN", true, true],
      ["DISCORD_API_URL", false, false],
    ]);
    expect(channelPlugin.variables.find((v) => v.name === "DISCORD_API_URL")?.description).toContain(
      "default https://discord.com/api",
    );
    expect(channelPlugin.enabled({})).toBe(false);
    expect(channelPlugin.enabled({ DISCORD_BOT_TOKEN: "  " })).toBe(false);
    expect(channelPlugin.enabled({ DISCORD_BOT_TOKEN: "t0k" })).toBe(true);
    const { enabled } = channelPlugin;
    expect(enabled({ DISCORD_BOT_TOKEN: "t0k" })).toBe(true);
    expect(channelPlugin.parseConversation("user:80351110224678912")).toEqual({
      kind: "user",
      id: "80351110224678912",
    });
    expect(channelPlugin.parseConversation("general")).toBeUndefined();
  });

  it("reads the config trimmed, and reports every problem at once without echoing the token", () => {
    expect(
      channelPlugin.readConfig({ DISCORD_BOT_TOKEN: " t0k ", DISCORD_API_URL: " http://127.0.0.1:9/api/ " }),
    ).toEqual({ token: "t0k", apiUrl: "http://127.0.0.1:9/api" });
    expect(channelPlugin.readConfig({ DISCORD_BOT_TOKEN: "t0k", DISCORD_API_URL: "" })).toEqual({
      token: "t0k",
    });

    const problems = (env: Record<string, string>) => {
      try {
        channelPlugin.readConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidChannelConfigError);
        return (error as InvalidChannelConfigError).problems;
      }
      throw new Error("no problem reported");
    };
    expect(problems({ DISCORD_API_URL: "ftp://x" })).toEqual([
      "DISCORD_BOT_TOKEN is not set: create a bot in the Discord Developer Portal.",
      'DISCORD_API_URL must be an http(s) URL, got "ftp://x".',
    ]);
    expect(() => channelPlugin.readConfig({ DISCORD_BOT_TOKEN: "secret", DISCORD_API_URL: "x" })).toThrow(
      /^discord: (?!.*secret).*must be an http/,
    );
  });

  it("is a light module: listing it loads no discord.js, creating an instance does", async () => {
    const probe = `
      import Module from "node:module";
      const loaded = () => Object.keys(Module._cache).some((path) => /[\\\\/]discord\\.js[\\\\/]/.test(path));
      const { channelPlugin } = await import(${JSON.stringify(fileURLToPath(new URL("../src/plugin.ts", import.meta.url)))});
      const listed = loaded();
      const config = channelPlugin.readConfig({ DISCORD_BOT_TOKEN: "t", DISCORD_API_URL: "http://127.0.0.1:9/api" });
      await channelPlugin.create({ config, logger: console, coordination: {}, instanceId: "x" }).catch(() => undefined);
      console.log(JSON.stringify({ listed, created: loaded() }));
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", probe],
      { cwd: fileURLToPath(new URL("..", import.meta.url)) },
    );
    expect(JSON.parse(stdout.trim().split("\n").at(-1) ?? "")).toEqual({ listed: false, created: true });
  }, 30_000);
});

describe("an instance", () => {
  it("sends once created, receives once initialized, and stops (twice is fine)", async () => {
    const discord = await fake();
    const instance = await create(discord);
    expect(instance.describe).toBe("discord (@ask_user_bot, REST; not receiving yet)");
    expect(instance.capabilities).toEqual({
      buttons: true,
      edit: true,
      privateNotices: true,
      maxButtons: 22,
      maxButtonLabel: 80,
      ingress: "connection",
    });
    // Discord pushes over the gateway: nothing for a host to mount or listen on.
    expect(instance.handleWebhook).toBeUndefined();
    expect(instance.listen).toBeUndefined();
    expect(discord.sessions()).toEqual([]);

    const broker = brokerFor(instance);
    const channelId = discord.guild.channelId;
    const asked = broker.ask(DEPLOY, { target: { channel: "discord", conversation: channelId } });
    const prompt = await discord.waitUntil(() => discord.messages(channelId)[0]);
    await instance.start(broker);
    expect(instance.describe).toBe("discord (@ask_user_bot, gateway)");
    expect(discord.sessions().map((s) => [s.connected, s.intents])).toEqual([
      [true, 1 | (1 << 9) | (1 << 12) | (1 << 15)],
    ]);

    const tap = discord.user(ALICE).click(channelId, prompt.id, "Production");
    expect(await asked).toMatchObject({ answers: { answers: { deploy_target: ["Production"] } } });
    expect(await discord.waitForResponse(tap)).toMatchObject({ type: 7 });

    await instance.stop();
    await instance.stop();
    expect(connected(discord)).toBe(0);
  }, 20_000);

  it("connects without Message Content when Discord refuses the privileged intent, and says so", async () => {
    const discord = await fake({ privilegedIntents: false });
    const warnings: string[] = [];
    const instance = await create(discord, { ...quiet, warn: (_, message) => void warnings.push(message) });
    await instance.start(brokerFor(instance));
    expect(instance.describe).toBe("discord (@ask_user_bot, gateway, no Message Content intent)");
    expect(warnings.filter((w) => w.includes("Message Content"))).toHaveLength(1);
    expect(
      discord
        .sessions()
        .filter((s) => s.connected)
        .map((s) => s.intents & (1 << 15)),
    ).toEqual([0]);
  }, 20_000);

  it("fails to create with a readable refusal for a wrong token, which it never prints", async () => {
    const discord = await fake();
    const config = channelPlugin.readConfig({
      DISCORD_BOT_TOKEN: "wrong-t0k",
      DISCORD_API_URL: discord.apiUrl,
    });
    const failure = await channelPlugin
      .create({ config, logger: quiet, coordination: createMemoryCoordination(), instanceId: "x" })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(ChannelError);
    expect(failure).toMatchObject({ failure: "refused", status: 401 });
    expect(String((failure as Error).message)).toMatch(/refused the bot token.*DISCORD_BOT_TOKEN/);
    expect(String((failure as Error).message)).not.toContain("wrong-t0k");
  });

  it("acknowledges a button or modal that is not ask-user's and that nobody answered", async () => {
    const discord = await fake();
    const instance = await create(discord);
    await instance.start(brokerFor(instance));
    // Another program on the same token left a menu behind.
    const rest = new REST({ api: discord.apiUrl }).setToken(discord.token);
    const channelId = discord.guild.channelId;
    const menu = (await rest.post(Routes.channelMessages(channelId), {
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
    // The other program opens its own modal at once; it never handles the submission.
    await rest.post(Routes.interactionCallback(form.id, form.token), {
      auth: false,
      body: {
        type: 9,
        data: {
          custom_id: "host:form",
          title: "Feedback",
          components: [{ type: 1, components: [{ type: 4, custom_id: "text", style: 1, label: "Text" }] }],
        },
      },
    });

    expect(await discord.waitForResponse(old)).toMatchObject({ type: 6 });
    expect((await discord.waitForResponse(form)).type).toBe(9);
    const submitted = ada.submitModal(form, "Nice");
    expect((await discord.waitForResponse(submitted)).type).toBe(6);
    expect(discord.message(channelId, menu.id)?.content).toBe("An old menu");
  }, 20_000);
});
