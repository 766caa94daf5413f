import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALICE, closeWorld, createWorld, DEPLOY, promptIn, setup, type World } from "./harness.ts";

// A client without the privileged Message Content intent: the fake then sends guild messages that do
// not mention the bot with empty content, as Discord does.
let world: World;
beforeAll(async () => {
  world = await createWorld({ messageContent: false });
});
afterAll(() => closeWorld(world));

const REGIONS = {
  questions: [
    {
      id: "regions",
      header: "Regions",
      question: "Which regions?",
      multiSelect: true,
      options: [{ label: "EU (Recommended)" }, { label: "US" }],
    },
  ],
};

describe("without the Message Content intent", () => {
  it("says so once in the log and tells guild users to mention the bot", async () => {
    const { broker, channelId, logs, mounted } = await setup(world);
    expect(mounted.messageContent).toBe(false);
    expect(logs.warn.filter((line) => line.includes("Message Content"))).toHaveLength(1);

    await broker.create(REGIONS, { target: { channel: "discord", conversation: channelId } });
    const prompt = await promptIn(world, channelId);
    expect(prompt.content).toContain(
      `\n-# This bot cannot read ordinary messages here: mention <@${world.discord.bot.id}> in your answer, or reply to this message.`,
    );
    expect(prompt.pings.users).toEqual([]);
    expect(logs.warn.filter((line) => line.includes("Message Content"))).toHaveLength(1);
  });

  it("cannot read a plain guild message, but reads one that mentions the bot", async () => {
    const { broker, channelId, logs } = await setup(world, { answerers: "conversation" });
    const record = await broker.create(REGIONS, { target: { channel: "discord", conversation: channelId } });
    await promptIn(world, channelId);
    const alice = world.discord.user(ALICE);

    alice.send(channelId, "1");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await broker.get(record.id))?.status).toBe("pending");

    alice.send(channelId, `<@${world.discord.bot.id}> US, EU`);

    expect(await broker.wait(record.id)).toEqual({
      status: "answered",
      answers: { answers: { regions: ["EU (Recommended)", "US"] } },
    });
    expect(logs.warn.filter((line) => line.includes("Message Content"))).toHaveLength(1);
  });

  it("reads a reply to the prompt (it pings the bot) and DMs", async () => {
    const { broker, channelId } = await setup(world, { answerers: "conversation" });
    const inGuild = await broker.create(DEPLOY, { target: { channel: "discord", conversation: channelId } });
    const prompt = await promptIn(world, channelId);
    world.discord.user(ALICE).reply(channelId, prompt.id, "Production");
    expect(await broker.wait(inGuild.id)).toMatchObject({
      answers: { answers: { deploy_target: ["Production"] } },
    });

    const frank = world.discord.user({ id: "200000000000000006", username: "frank" });
    const inDm = await broker.create(DEPLOY, {
      target: { channel: "discord", conversation: `user:${frank.id}` },
    });
    const dm = await world.discord.waitUntil(() => world.discord.dmChannelId(frank.id));
    expect((await promptIn(world, dm)).content).not.toContain("cannot read");
    frank.sendDM("Nowhere");
    expect(await broker.wait(inDm.id)).toMatchObject({
      answers: { answers: { deploy_target: ["Nowhere"] } },
    });
  });
});
