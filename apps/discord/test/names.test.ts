// How people are named on Discord (SPEC §5): `<@id>`, shown as their name, sent with mentions suppressed;
// long answers never cut the attribution; messages the bot sends for a question can be replied to.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ALICE,
  BOB,
  closeWorld,
  createWorld,
  DEPLOY,
  expectSummary,
  mention,
  promptIn,
  setup,
  type World,
  waitFor,
} from "./harness.ts";

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => closeWorld(world));

/** The creator as a host passes it: no name, the channel supplies one. */
const creator = { channel: "discord", userId: ALICE.id };
const chars = (text: string) => [...text].length;

describe("names", () => {
  it("names the creator <@id> in a refusal, and the answerer in the summary, pinging nobody", async () => {
    const { broker, channelId } = await setup(world);
    const asked = broker.ask(DEPLOY, { target: { channel: "discord", conversation: channelId }, creator });
    const prompt = await promptIn(world, channelId);

    const refused = await world.discord.waitForResponse(
      world.discord.user(BOB).click(channelId, prompt.id, "Nowhere"),
    );

    expect(refused.data).toMatchObject({
      content: `This question is for ${mention(ALICE)}.`,
      flags: 64,
      allowed_mentions: { parse: [] },
    });
    const tap = world.discord.user(ALICE).click(channelId, prompt.id, "Production");
    expect(await asked).toMatchObject({ status: "answered" });
    const update = await world.discord.waitForResponse(tap);
    expect(update).toMatchObject({
      type: 7,
      data: { content: `✅ Deploy: Production — ${mention(ALICE)}`, allowed_mentions: { parse: [] } },
    });
    expect(world.discord.message(channelId, prompt.id)?.content).toBe(
      `✅ Deploy: Production — ${mention(ALICE)}`,
    );
  });

  it("edits a question answered by text to a summary naming <@id>, with mentions suppressed", async () => {
    const { broker, channelId } = await setup(world);
    const asked = broker.ask(DEPLOY, { target: { channel: "discord", conversation: channelId }, creator });
    const prompt = await promptIn(world, channelId);

    world.discord.user(ALICE).reply(channelId, prompt.id, "3");

    expect(await asked).toMatchObject({ answers: { answers: { deploy_target: ["Nowhere"] } } });
    await expectSummary(world, channelId, prompt.id, `✅ Deploy: Nowhere — ${mention(ALICE)}`);
    const edit = world.discord.calls.find((c) => c.route === "editMessage" && c.path.endsWith(prompt.id));
    expect(edit?.body).toMatchObject({ allowed_mentions: { parse: [] } });
  });

  it("keeps the attribution of a 3000-character answer from the Other… modal, within 2000 characters", async () => {
    const { broker, channelId } = await setup(world);
    const asked = broker.ask(DEPLOY, { target: { channel: "discord", conversation: channelId }, creator });
    const prompt = await promptIn(world, channelId);
    const alice = world.discord.user(ALICE);
    const tap = alice.click(channelId, prompt.id, "Other…");
    await world.discord.waitForResponse(tap);
    const long = `${"Roll out *slowly* <3 ".repeat(150)}`.slice(0, 3000);

    const submit = alice.submitModal(tap, long);

    expect(await asked).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: [long.trim()] } },
    });
    expect((await world.discord.waitForResponse(submit)).type).toBe(7);
    const summary = world.discord.message(channelId, prompt.id)?.content ?? "";
    expect(summary.startsWith("✅ Deploy: Roll out \\*slowly\\* \\<3")).toBe(true);
    expect(summary.endsWith(`… — ${mention(ALICE)}`)).toBe(true);
    expect(chars(summary)).toBeLessThanOrEqual(2000);
  });
});

describe("messages the bot sent for a question", () => {
  it("routes a reply to a refusal sent by DM back to that question", async () => {
    const { broker, channelId } = await setup(world);
    const record = await broker.create(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator,
    });
    const prompt = await promptIn(world, channelId);
    const bob = world.discord.user(BOB);
    bob.reply(channelId, prompt.id, "Production");
    const dm = await world.discord.waitUntil(() => world.discord.dmChannelId(BOB.id));
    const notice = await world.discord.waitUntil(() => world.discord.messages(dm)[0]);
    expect(notice.content).toBe(`This question is for ${mention(ALICE)}.`);
    // The broker keeps the notice once Discord has it; a person takes longer than that to reply.
    await waitFor(async () =>
      (await broker.get(record.id))?.deliveries.some((d) => d.messageId === notice.id),
    );

    bob.sendDM("Production", { replyTo: notice.id });

    const again = await world.discord.waitUntil(
      () => world.discord.messages(dm).filter((m) => m.author.bot)[1],
    );
    expect(again.content).toBe(`This question is for ${mention(ALICE)}.`);
    expect((await broker.get(record.id))?.status).toBe("pending");
  });

  it("tells a reply to an ended question's message why, and leaves the next question alone", async () => {
    const { broker, channelId } = await setup(world);
    const first = await broker.create(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator,
    });
    const recorded = await promptIn(world, channelId);
    const alice = world.discord.user(ALICE);
    alice.send(channelId, "2");
    await world.discord.waitUntil(
      () =>
        world.discord.message(channelId, recorded.id)?.content ===
        `✅ Deploy: Production — ${mention(ALICE)}`,
    );
    expect((await broker.get(first.id))?.status).toBe("answered");
    const second = await broker.create(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator,
    });

    alice.reply(channelId, recorded.id, "Staging");

    const dm = await world.discord.waitUntil(() => world.discord.dmChannelId(ALICE.id));
    await world.discord.waitUntil(() =>
      world.discord
        .messages(dm)
        .some((m) => m.content === `This question was already answered by ${mention(ALICE)}.`),
    );
    expect((await broker.get(second.id))?.status).toBe("pending");
  });
});
