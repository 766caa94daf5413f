import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ALICE,
  BOB,
  buttonRows,
  closeWorld,
  createWorld,
  DEPLOY,
  expectSummary,
  mention,
  promptIn,
  setup,
  type World,
} from "./harness.ts";

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => closeWorld(world));

const REGIONS = {
  questions: [
    {
      id: "regions",
      header: "Regions",
      question: "Which regions get the release?",
      multiSelect: true,
      options: [{ label: "EU (Recommended)", description: "Frankfurt" }, { label: "US" }, { label: "Asia" }],
    },
  ],
};

const PLAN = {
  questions: [
    {
      id: "env",
      header: "Env",
      question: "Which environment?",
      options: [{ label: "Staging (Recommended)" }, { label: "Production" }],
    },
    {
      id: "window",
      header: "Window",
      question: "When?",
      options: [{ label: "Tonight (Recommended)" }, { label: "Weekend" }],
    },
  ],
};

const DAVE = { id: "200000000000000004", username: "dave" };

describe("text replies", () => {
  it("answers a question in a DM by a plain message, and edits the prompt to the summary", async () => {
    const { broker } = await setup(world);
    const dave = world.discord.user(DAVE);
    const asked = broker.ask(DEPLOY, { target: { channel: "discord", conversation: `user:${DAVE.id}` } });
    const dm = await world.discord.waitUntil(() => world.discord.dmChannelId(DAVE.id));
    const prompt = await promptIn(world, dm);
    expect(buttonRows(prompt)).toHaveLength(2);

    const mine = dave.sendDM("2");

    expect(await asked).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    await expectSummary(world, dm, prompt.id, `✅ Deploy: Production — ${mention(DAVE)}`);
    // The summary says what was recorded; the reply itself gets a ✅ instead of a "Recorded: …" message.
    await world.discord.waitUntil(
      () => world.discord.message(dm, mine.id)?.reactions?.[0]?.emoji.name === "✅",
    );
    expect(world.discord.messages(dm).filter((m) => m.author.id === world.discord.bot.id)).toHaveLength(1);
  });

  it("answers a question in a guild channel by a reply to the prompt", async () => {
    const { broker, channelId } = await setup(world);
    const asked = broker.ask(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator: { channel: "discord", userId: ALICE.id },
    });
    const prompt = await promptIn(world, channelId);

    world.discord.user(ALICE).reply(channelId, prompt.id, "Staging");

    expect(await asked).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Staging (Recommended)"] } },
    });
    await world.discord.waitUntil(
      () =>
        world.discord.message(channelId, prompt.id)?.content ===
        `✅ Deploy: Staging (Recommended) — ${mention(ALICE)}`,
    );
  });

  // Other… opens a modal; dismissing it leaves nothing behind, so the next message is read as usual.
  for (const [typed, result] of [
    ["2", { status: "answered", answers: { answers: { deploy_target: ["Production"] } } }],
    ["skip", { status: "no_answer", reason: "skipped" }],
  ] as const) {
    it(`reads "${typed}" by the normal rules after Other… was tapped and its modal dismissed`, async () => {
      const { broker, channelId } = await setup(world);
      const record = await broker.create(DEPLOY, {
        target: { channel: "discord", conversation: channelId },
        creator: { channel: "discord", userId: ALICE.id },
      });
      const asked = broker.wait(record.id);
      const prompt = await promptIn(world, channelId);
      const alice = world.discord.user(ALICE);
      const tap = alice.click(channelId, prompt.id, "Other…");
      expect((await world.discord.waitForResponse(tap)).type).toBe(9);
      expect((await broker.get(record.id))?.awaitingText).toBeUndefined();

      alice.send(channelId, typed); // the modal was closed without submitting

      expect(await asked).toEqual(result);
    });
  }

  it("asks in a thread and takes the answer there", async () => {
    const { broker } = await setup(world, { answerers: "conversation" });
    const thread = world.discord.guild.threadId ?? "";
    const asked = broker.ask(DEPLOY, { target: { channel: "discord", conversation: thread } });
    const prompt = await promptIn(world, thread);

    world.discord.user(BOB).send(thread, "Production");

    expect(await asked).toMatchObject({ answers: { answers: { deploy_target: ["Production"] } } });
    await world.discord.waitUntil(
      () => world.discord.message(thread, prompt.id)?.content === `✅ Deploy: Production — ${mention(BOB)}`,
    );
  });

  it("answers a multi-select question by text, its readable text shown beside the select", async () => {
    const { broker, channelId } = await setup(world, { answerers: "conversation" });
    const asked = broker.ask(REGIONS, { target: { channel: "discord", conversation: channelId } });
    const prompt = await promptIn(world, channelId);
    expect(prompt.components.map((row) => row.components?.[0]?.type)).toEqual([3, 2]);
    expect(prompt.content).toContain(
      "Regions: Which regions get the release?\n   1\\. EU (Recommended) — Frankfurt",
    );
    expect(prompt.content).toContain("separated by commas");
    expect(prompt.content).not.toContain("UTC");
    expect(prompt.content).toMatch(/\n-# Expires at <t:\d+:t> \(<t:\d+:R>\)\.$/);

    world.discord.user(BOB).send(channelId, "3, 1");

    expect(await asked).toEqual({
      status: "answered",
      answers: { answers: { regions: ["EU (Recommended)", "Asia"] } },
    });
    await world.discord.waitUntil(
      () =>
        world.discord.message(channelId, prompt.id)?.content ===
        `✅ Regions: EU (Recommended), Asia — ${mention(BOB)}`,
    );
  });

  it("walks through several questions with the text stepper", async () => {
    const { broker, channelId } = await setup(world);
    const asked = broker.ask(PLAN, {
      target: { channel: "discord", conversation: channelId },
      creator: { channel: "discord", userId: ALICE.id },
    });
    const prompt = await promptIn(world, channelId);
    expect(prompt.content).toContain("1) Env: Which environment?");
    expect(prompt.content).toContain("2) Window: When?");
    const alice = world.discord.user(ALICE);

    alice.reply(channelId, prompt.id, "1: Production");
    const step = await world.discord.waitUntil(() =>
      world.discord.messages(channelId).find((m) => m.content.startsWith("Recorded: Env: Production")),
    );
    expect(step.content).toContain("Still needed:");
    expect(step.content).toContain("2) Window: When?");
    alice.reply(channelId, step.id, "Weekend");

    expect(await asked).toEqual({
      status: "answered",
      answers: { answers: { env: ["Production"], window: ["Weekend"] } },
    });
    await world.discord.waitUntil(
      () =>
        world.discord.message(channelId, prompt.id)?.content ===
        `✅ Env: Production · Window: Weekend — ${mention(ALICE)}`,
    );
  });

  it("tells a member who replies to someone else's question so by DM, and keeps the question", async () => {
    const { broker, channelId } = await setup(world);
    const record = await broker.create(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator: { channel: "discord", userId: ALICE.id },
    });
    const prompt = await promptIn(world, channelId);
    const bob = world.discord.user(BOB);

    bob.reply(channelId, prompt.id, "Production");

    const dm = await world.discord.waitUntil(() => world.discord.dmChannelId(BOB.id));
    const notice = await world.discord.waitUntil(() =>
      world.discord.messages(dm).find((m) => m.content === `This question is for ${mention(ALICE)}.`),
    );
    expect(notice.author.id).toBe(world.discord.bot.id);
    expect(
      world.discord.messages(channelId).filter((m) => m.author.id === world.discord.bot.id),
    ).toHaveLength(1);
    expect((await broker.get(record.id))?.status).toBe("pending");
  });

  it("ignores other bots' messages", async () => {
    const { broker, channelId } = await setup(world, { answerers: "conversation" });
    const record = await broker.create(DEPLOY, { target: { channel: "discord", conversation: channelId } });
    await promptIn(world, channelId);

    world.discord.user({ id: "200000000000000099", username: "otherbot", bot: true }).send(channelId, "1");
    const reply = world.discord.user(BOB).send(channelId, "hello?");
    await world.discord.waitUntil(() => world.discord.message(channelId, reply.id)?.reactions);

    expect((await broker.get(record.id))?.answers).toEqual({ deploy_target: ["hello?"] });
  });

  it("confirms a skip by text with ⏭️ on the message, the prompt edited to say who skipped", async () => {
    const { broker, channelId } = await setup(world, { answerers: "conversation" });
    const asked = broker.ask(DEPLOY, { target: { channel: "discord", conversation: channelId } });
    const prompt = await promptIn(world, channelId);

    const mine = world.discord.user(BOB).send(channelId, "skip");

    expect(await asked).toEqual({ status: "no_answer", reason: "skipped" });
    await expectSummary(world, channelId, prompt.id, `⏭ Deploy — skipped by ${mention(BOB)}`);
    await world.discord.waitUntil(() => world.discord.message(channelId, mine.id)?.reactions);
    expect(world.discord.message(channelId, mine.id)?.reactions?.map((r) => r.emoji.name)).toEqual(["⏭️"]);
  });

  it("replies with the confirmation when Discord refuses the reaction", async () => {
    const { broker, channelId, logs } = await setup(world, { answerers: "conversation" });
    const asked = broker.ask(DEPLOY, { target: { channel: "discord", conversation: channelId } });
    await promptIn(world, channelId);
    world.discord.failNext("createReaction", { status: 403, code: 50013, message: "Missing Permissions" });

    const mine = world.discord.user(BOB).send(channelId, "2");

    expect(await asked).toMatchObject({ status: "answered" });
    const confirmation = await world.discord.waitUntil(() =>
      world.discord.messages(channelId).find((m) => m.content === "Recorded: Production"),
    );
    expect(confirmation.message_reference?.message_id).toBe(mine.id);
    expect(logs.warn).toContain("Discord: could not react to confirm, replying instead");
  });
});
