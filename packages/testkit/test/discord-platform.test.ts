import { DiscordAPIError, Events, type Interaction, type Message } from "discord.js";
import { describe, expect, it } from "vitest";
import { ALL, connect, fake, nextMessage } from "./discord-harness.ts";

// What Discord sends, as the bot sees it through the real discord.js (PLATFORMS.md, "What the platforms send").

interface RawPacket {
  t: string | null;
  d: { content?: string; mention_roles?: string[]; referenced_message?: { content: string } | null };
}

describe("message content as people type it", () => {
  it("keeps line breaks and Discord's mention syntax exactly", async () => {
    const discord = await fake();
    const client = await connect(discord);
    const raw: RawPacket[] = [];
    client.on(Events.Raw, (packet: RawPacket) => raw.push(packet));
    const channelId = discord.guild.channelId;
    const typed = `<@!${discord.bot.id}> first\nsecond <@&300000000000000003> in <#${channelId}>\n\n  third`;

    const seen = nextMessage(client);
    discord.user({ id: "42", username: "ada" }).send(channelId, typed);
    const message = await seen;

    expect(message.content).toBe(typed);
    expect(message.mentions.users.has(discord.bot.id)).toBe(true);
    expect(message.mentions.channels.has(channelId)).toBe(true);
    const packet = raw.find((p) => p.t === "MESSAGE_CREATE");
    expect(packet?.d.mention_roles).toEqual(["300000000000000003"]);
  });
});

describe("without the Message Content intent", () => {
  it("sends a reply's content only while the reply pings the bot, and never someone else's quoted text", async () => {
    const discord = await fake();
    const client = await connect(discord, { intents: ALL.slice(0, 3) });
    const raw: RawPacket[] = [];
    client.on(Events.Raw, (packet: RawPacket) => raw.push(packet));
    const seen: string[] = [];
    client.on(Events.MessageCreate, (message: Message) => {
      if (!message.author.bot) seen.push(message.content);
    });
    const channel = client.channels.cache.get(discord.guild.channelId);
    if (!channel?.isSendable()) throw new Error("no channel");
    const question = await channel.send({ content: "Which one?", allowedMentions: { parse: [] } });
    const ada = discord.user({ id: "42", username: "ada" });
    const bob = discord.user({ id: "43", username: "bob" });

    ada.reply(channel.id, question.id, "pinged reply");
    ada.reply(channel.id, question.id, "quiet reply", { mentionAuthor: false });
    const secret = bob.send(channel.id, "bob's words");
    ada.reply(channel.id, secret.id, `<@${discord.bot.id}> I agree with bob`);
    await discord.waitUntil(() => seen.length === 4);

    expect(seen).toEqual(["pinged reply", "", "", `<@${discord.bot.id}> I agree with bob`]);
    const quoted = raw.filter((p) => p.t === "MESSAGE_CREATE").map((p) => p.d.referenced_message?.content);
    expect(quoted).toEqual([undefined, "Which one?", "Which one?", undefined, ""]);
  });
});

describe("several gateway connections on one token", () => {
  it("each receive every dispatch, and only the first answer to an interaction is accepted", async () => {
    const discord = await fake();
    const first = await connect(discord);
    const second = await connect(discord);
    expect(discord.sessions().filter((s) => s.connected)).toHaveLength(2);
    const results: Array<string | number> = [];
    const answer = async (interaction: Interaction) => {
      if (!interaction.isButton()) return;
      try {
        await interaction.reply({ content: "mine" });
        results.push("replied");
      } catch (error) {
        results.push(error instanceof DiscordAPIError ? Number(error.code) : String(error));
      }
    };
    first.on(Events.InteractionCreate, answer);
    second.on(Events.InteractionCreate, answer);
    const channel = first.channels.cache.get(discord.guild.channelId);
    if (!channel?.isSendable()) throw new Error("no channel");

    const messages = [nextMessage(first, (m) => !m.author.bot), nextMessage(second, (m) => !m.author.bot)];
    const ada = discord.user({ id: "42", username: "ada" });
    ada.send(channel.id, "hello, both of you");
    expect((await Promise.all(messages)).map((m) => m.content)).toEqual([
      "hello, both of you",
      "hello, both of you",
    ]);

    const menu = await channel.send({
      content: "Pick",
      components: [{ type: 1, components: [{ type: 2, style: 1, label: "Go", custom_id: "go" }] }],
    });
    ada.click(channel.id, menu.id, "Go");
    await discord.waitUntil(() => results.length === 2);

    expect(results.sort()).toEqual([40060, "replied"]);
    expect(discord.messages(channel.id).filter((m) => m.content === "mine")).toHaveLength(1);
  });

  it("refuses a first answer that comes after the deadline (10062) through discord.js", async () => {
    const discord = await fake({ responseDeadlineMs: 100 });
    const client = await connect(discord);
    let code: unknown;
    client.on(Events.InteractionCreate, async (interaction) => {
      if (!interaction.isButton()) return;
      await new Promise((resolve) => setTimeout(resolve, 150));
      code = await interaction.deferUpdate().then(
        () => "accepted",
        (error: unknown) => (error instanceof DiscordAPIError ? error.code : error),
      );
    });
    const channel = client.channels.cache.get(discord.guild.channelId);
    if (!channel?.isSendable()) throw new Error("no channel");
    const menu = await channel.send({
      content: "Pick",
      components: [{ type: 1, components: [{ type: 2, style: 1, label: "Go", custom_id: "go" }] }],
    });

    const click = discord.user({ id: "42", username: "ada" }).click(channel.id, menu.id, "Go");

    await discord.waitUntil(() => code !== undefined);
    expect(code).toBe(10062);
    expect(discord.interaction(click.id)?.response).toBeUndefined();
  });
});
