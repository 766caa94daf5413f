import { ChannelType, Client, DiscordAPIError, Events, MessageFlags, Partials } from "discord.js";
import { describe, expect, it } from "vitest";
import { buttonsOf } from "../src/discord/index.ts";
import { ALL, connect, fake, nextMessage, onCleanup } from "./discord-harness.ts";

// The real discord.js against the fake: gateway handshake, events, REST and interaction responses.
describe("the gateway", () => {
  it("says HELLO, answers IDENTIFY with READY and then GUILD_CREATE, with increasing sequence numbers", async () => {
    const discord = await fake();
    const client = new Client({ intents: ALL, partials: [Partials.Channel], rest: { api: discord.apiUrl } });
    onCleanup(() => client.destroy());
    const packets: Array<{ t: string | null; s: number | null }> = [];
    client.on(Events.Raw, (packet: { t: string | null; s: number | null }) =>
      packets.push({ t: packet.t, s: packet.s }),
    );
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    await client.login(discord.token);
    await ready;

    expect(packets.slice(0, 2)).toEqual([
      { t: "READY", s: 1 },
      { t: "GUILD_CREATE", s: 2 },
    ]);
    expect(client.user?.id).toBe(discord.bot.id);
    expect(client.guilds.cache.get(discord.guild.id)?.name).toBe("Fake Guild");
    expect(client.channels.cache.get(discord.guild.channelId)?.type).toBe(ChannelType.GuildText);
    expect(client.channels.cache.get(discord.guild.threadId ?? "")?.isThread()).toBe(true);
    expect(discord.calls.map((c) => c.route)).toEqual(["getGatewayBot"]);

    discord.user({ id: "42", username: "ada" }).send(discord.guild.channelId, "one");
    discord.user({ id: "42", username: "ada" }).send(discord.guild.channelId, "two");
    await discord.waitUntil(() => packets.filter((p) => p.t === "MESSAGE_CREATE").length === 2);
    const seqs = packets.map((p) => p.s ?? 0);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it("acknowledges heartbeats, so the client keeps its session", async () => {
    const discord = await fake({ heartbeatIntervalMs: 150 });
    await connect(discord);
    await discord.waitUntil(() => (discord.sessions()[0]?.heartbeats ?? 0) >= 3, 2000);
    expect(discord.sessions()).toHaveLength(1);
    expect(discord.sessions()[0]).toMatchObject({ connected: true, resumes: 0 });
  });

  it("lets a dropped client RESUME and replays what it missed", async () => {
    const discord = await fake();
    const client = await connect(discord);
    const ada = discord.user({ id: "42", username: "ada" });

    discord.dropConnections();
    await discord.waitUntil(() => discord.sessions()[0]?.connected === false);
    ada.send(discord.guild.channelId, "while you were away");
    const missed = await Promise.race([
      nextMessage(client),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no replay")), 5000)),
    ]);

    expect(missed.content).toBe("while you were away");
    expect(discord.sessions()).toHaveLength(1);
    expect(discord.sessions()[0]).toMatchObject({ connected: true, resumes: 1 });
  });

  it("refuses a wrong token and the privileged intent when the app may not use it", async () => {
    const discord = await fake({ privilegedIntents: false });
    const wrong = new Client({ intents: ALL, rest: { api: discord.apiUrl } });
    onCleanup(() => wrong.destroy());
    await expect(wrong.login("not-the-token")).rejects.toThrow(/token/i);
    const greedy = new Client({ intents: ALL, rest: { api: discord.apiUrl } });
    onCleanup(() => greedy.destroy());
    await expect(greedy.login(discord.token)).rejects.toThrow(/disallowed intents/);
    await connect(discord, { intents: ALL.slice(0, 3) });
  });

  it("sends guild message content only with the Message Content intent or a mention of the bot", async () => {
    const discord = await fake();
    const client = await connect(discord, { intents: ALL.slice(0, 3) });
    const ada = discord.user({ id: "42", username: "ada" });
    const seen: string[] = [];
    client.on(Events.MessageCreate, (message) => {
      seen.push(`${message.channel.type}:${message.content}`);
    });

    ada.send(discord.guild.channelId, "hidden");
    ada.send(discord.guild.channelId, `<@${discord.bot.id}> visible`);
    ada.sendDM("dm visible");
    await discord.waitUntil(() => seen.length === 3);

    expect(seen).toEqual(["0:", `0:<@${discord.bot.id}> visible`, "1:dm visible"]);
  });
});

describe("REST and interactions with discord.js", () => {
  it("sends, edits, opens DMs and answers a reply with its reference", async () => {
    const discord = await fake();
    const client = await connect(discord);
    const ada = discord.user({ id: "42", username: "ada" });
    const channel = client.channels.cache.get(discord.guild.channelId);
    if (!channel?.isSendable()) throw new Error("no channel");

    const sent = await channel.send({ content: "Question?", allowedMentions: { parse: [] } });
    const reply = nextMessage(client, (m) => !m.author.bot);
    ada.reply(channel.id, sent.id, "Answer");
    expect((await reply).reference?.messageId).toBe(sent.id);
    await sent.edit({ content: "Answered" });
    expect(discord.message(channel.id, sent.id)?.content).toBe("Answered");

    const dm = await client.users.createDM(ada.id);
    await dm.send("hello in private");
    expect(discord.messages(discord.dmChannelId(ada.id) ?? "")?.map((m) => m.content)).toEqual([
      "hello in private",
    ]);
  });

  it("refuses six buttons in a row from discord.js with a readable form error", async () => {
    const discord = await fake();
    const client = await connect(discord);
    const channel = client.channels.cache.get(discord.guild.channelId);
    if (!channel?.isSendable()) throw new Error("no channel");
    const components = [
      {
        type: 1,
        components: [1, 2, 3, 4, 5, 6].map((n) => ({
          type: 2,
          style: 2,
          label: `B${n}`,
          custom_id: `b${n}`,
        })),
      },
    ];
    const error = await channel.send({ content: "x", components }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(DiscordAPIError);
    expect((error as DiscordAPIError).code).toBe(50035);
    expect((error as DiscordAPIError).message).toContain("components[0].components[BASE_TYPE_BAD_LENGTH]");
  });

  it("routes clicks, modals and every response type", async () => {
    const discord = await fake();
    const client = await connect(discord);
    client.on(Events.InteractionCreate, async (interaction) => {
      if (interaction.isButton() && interaction.customId === "update") {
        await interaction.update({ content: `updated by ${interaction.user.username}`, components: [] });
      } else if (interaction.isButton() && interaction.customId === "private") {
        await interaction.reply({ content: `only for ${interaction.locale}`, flags: MessageFlags.Ephemeral });
      } else if (interaction.isButton() && interaction.customId === "modal") {
        await interaction.showModal({
          custom_id: "form",
          title: "Tell me",
          components: [
            {
              type: 1,
              components: [{ type: 4, custom_id: "text", style: 2, label: "Text", required: true }],
            },
          ],
        });
      } else if (interaction.isModalSubmit() && interaction.isFromMessage()) {
        await interaction.deferUpdate();
        await interaction.editReply({
          content: `got ${interaction.fields.getTextInputValue("text")}`,
          components: [],
        });
        await interaction.followUp({ content: "thanks", flags: MessageFlags.Ephemeral });
      }
    });
    const channel = client.channels.cache.get(discord.guild.channelId);
    if (!channel?.isSendable()) throw new Error("no channel");
    const buttons = (ids: string[]) => [
      { type: 1, components: ids.map((id) => ({ type: 2, style: 1, label: id, custom_id: id })) },
    ];
    const first = await channel.send({
      content: "pick",
      components: buttons(["update", "private", "modal"]),
    });
    const ada = discord.user({ id: "42", username: "ada", locale: "de" });

    const privately = ada.click(channel.id, first.id, "private");
    expect(await discord.waitForResponse(privately)).toMatchObject({
      type: 4,
      data: { content: "only for de", flags: 64 },
    });
    expect(discord.ephemerals(ada.id).map((m) => m.content)).toEqual(["only for de"]);

    const opened = ada.click(channel.id, first.id, "modal");
    expect((await discord.waitForResponse(opened)).type).toBe(9);
    const submitted = ada.submitModal(opened, "hello");
    expect((await discord.waitForResponse(submitted)).type).toBe(6);
    await discord.waitUntil(() => discord.message(channel.id, first.id)?.content === "got hello");
    await discord.waitUntil(() => discord.ephemerals(ada.id).some((m) => m.content === "thanks"));

    const second = await channel.send({ content: "again", components: buttons(["update"]) });
    ada.click(channel.id, second.id, "update");
    await discord.waitUntil(() => discord.message(channel.id, second.id)?.content === "updated by ada");
    expect(buttonsOf(discord.message(channel.id, second.id))).toEqual([]);
  });
});
