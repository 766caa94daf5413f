// Mounted on the host's own client: buttons and messages that are not ask-user's stay the host's.
import { Events, type Interaction, type Message } from "discord.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALICE, closeWorld, createWorld, DEPLOY, setup, type World, waitFor } from "./harness.ts";

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => closeWorld(world));

const creator = (user: { id: string; username: string }) => ({ channel: "discord", userId: user.id });

describe("mounted on the host's client", () => {
  it("never answers a button that is not ask-user's, even when no listener of the host does", async () => {
    const { channelId } = await setup(world, { channel: { deferAfterMs: 20 } });
    const channel = world.client.channels.cache.get(channelId);
    if (!channel?.isSendable()) throw new Error("no channel");
    const own = await channel.send({
      content: "Host menu",
      components: [{ type: 1, components: [{ type: 2, style: 1, label: "Later", custom_id: "host:later" }] }],
    });

    const tap = world.discord.user(ALICE).click(channelId, own.id, "Later");

    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(world.discord.interaction(tap.id)?.response).toBeUndefined();
  });

  it("leaves the host's own buttons and messages to the host's listeners", async () => {
    const unhandled: string[] = [];
    const { broker, channelId } = await setup(world, {
      channel: {
        onUnhandledMessage: (message) => {
          if (!message.author.bot) unhandled.push(message.content);
        },
      },
    });
    const seen: string[] = [];
    const onInteraction = async (interaction: Interaction) => {
      if (!interaction.isButton() || interaction.customId !== "host:ping") return;
      seen.push(`button ${interaction.customId}`);
      await interaction.reply({ content: "pong" });
    };
    const onMessage = (message: Message) => {
      if (!message.author.bot) seen.push(`message ${message.content}`);
    };
    world.client.on(Events.InteractionCreate, onInteraction);
    world.client.on(Events.MessageCreate, onMessage);
    try {
      const channel = world.client.channels.cache.get(channelId);
      if (!channel?.isSendable()) throw new Error("no channel");
      const own = await channel.send({
        content: "Host menu",
        components: [{ type: 1, components: [{ type: 2, style: 1, label: "Ping", custom_id: "host:ping" }] }],
      });
      const alice = world.discord.user(ALICE);
      const hostTap = alice.click(channelId, own.id, "Ping");
      alice.send(channelId, "hello host");
      expect((await world.discord.waitForResponse(hostTap)).data?.content).toBe("pong");
      await waitFor(() => unhandled.length === 1);

      const asked = broker.ask(DEPLOY, {
        target: { channel: "discord", conversation: channelId },
        creator: creator(ALICE),
      });
      await world.discord.waitUntil(() =>
        world.discord.messages(channelId).find((m) => m.content.includes("**Deploy**")),
      );
      alice.send(channelId, "3");

      expect(await asked).toMatchObject({ answers: { answers: { deploy_target: ["Nowhere"] } } });
      await waitFor(() => seen.length === 3);
      expect(seen).toEqual(["button host:ping", "message hello host", "message 3"]);
      expect(unhandled).toEqual(["hello host"]);
    } finally {
      world.client.off(Events.InteractionCreate, onInteraction);
      world.client.off(Events.MessageCreate, onMessage);
    }
  });
});
