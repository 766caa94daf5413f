import { channelPlugin } from "@ask-user/discord/plugin";
import { createFakeDiscord, type FakeDiscord } from "@ask-user/testkit/discord";
import { describe, expect, it } from "vitest";
import { onCleanup, run } from "./helpers.ts";

const ALICE = { id: "200000000000000001", username: "alice" };

async function fake(): Promise<FakeDiscord> {
  const discord = await createFakeDiscord();
  onCleanup(() => discord.close());
  discord.user(ALICE);
  return discord;
}

const envOf = (discord: FakeDiscord) => ({
  DISCORD_BOT_TOKEN: discord.token,
  DISCORD_API_URL: discord.apiUrl,
});

async function dmPrompt(discord: FakeDiscord) {
  const dm = await discord.waitUntil(() => discord.dmChannelId(ALICE.id), 10_000);
  return { dm, message: await discord.waitUntil(() => discord.messages(dm)[0], 10_000) };
}

describe("ask-user-channel discord", () => {
  it("asks in a direct message alone, prints the answer and exits 0, never showing the token", async () => {
    const discord = await fake();
    const runner = await run(
      channelPlugin,
      ["--target", `user:${ALICE.id}`, "--creator", ALICE.id, "-"],
      envOf(discord),
    );
    const { dm, message } = await dmPrompt(discord);
    await discord.user(ALICE).click(dm, message.id, "Production");
    expect(await runner.exit).toBe(0);
    expect(JSON.parse(runner.out())).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(runner.err()).toBe(
      `discord (@ask_user_bot, gateway): waiting for an answer in user:${ALICE.id}…\n`,
    );
    expect(runner.err()).not.toContain(discord.token);
  });

  it("exits 3 when the person skips", async () => {
    const discord = await fake();
    const runner = await run(channelPlugin, ["--target", `user:${ALICE.id}`, "-"], envOf(discord));
    const { dm, message } = await dmPrompt(discord);
    await discord.user(ALICE).click(dm, message.id, "Skip");
    expect(await runner.exit).toBe(3);
    expect(JSON.parse(runner.out())).toEqual({ status: "no_answer", reason: "skipped" });
  });

  it("cancels the question on Ctrl-C and exits 130", async () => {
    const discord = await fake();
    const runner = await run(channelPlugin, ["--target", discord.guild.channelId, "-"], envOf(discord));
    await discord.waitUntil(() => discord.messages(discord.guild.channelId)[0], 10_000);
    runner.interrupt();
    expect(await runner.exit).toBe(130);
    expect(JSON.parse(runner.out())).toEqual({ status: "no_answer", reason: "cancelled" });
  });

  it("exits 2 for a bad target or bad input and 1 without a token", async () => {
    const discord = await fake();
    const target = await run(channelPlugin, ["--target", "general", "-"], envOf(discord));
    expect(await target.exit).toBe(2);
    expect(target.err()).toMatch(
      /^--target general is not a Discord conversation\.\n\nUsage: ask-user-channel discord /,
    );
    const input = await run(
      channelPlugin,
      ["--target", discord.guild.channelId, "-"],
      envOf(discord),
      JSON.stringify({ questions: [] }),
    );
    expect(await input.exit).toBe(2);
    expect(input.err()).toContain("questions");
    const token = await run(channelPlugin, ["--target", `user:${ALICE.id}`, "-"], {});
    expect(await token.exit).toBe(1);
    expect(token.err()).toMatch(/^ask-user discord: invalid configuration:\n- DISCORD_BOT_TOKEN is not set/);
  });

  it("exits 1 with Discord's refusal for a wrong token", async () => {
    const discord = await fake();
    const runner = await run(channelPlugin, ["--target", `user:${ALICE.id}`, "-"], {
      DISCORD_BOT_TOKEN: "wrong",
      DISCORD_API_URL: discord.apiUrl,
    });
    expect(await runner.exit).toBe(1);
    expect(runner.err()).toMatch(/^ask-user discord: .*token/i);
    expect(runner.out()).toBe("");
  });
});
