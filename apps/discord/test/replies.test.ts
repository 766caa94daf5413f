// Text replies as people type them on Discord (issue #10): line breaks (Shift+Enter) kept, the one-line
// keyed form, mentions of the bot, and two people answering different questions at the same moment.
import { createMemoryStore } from "@ask-user/core";
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
      options: [{ label: "EU (Recommended)" }, { label: "US" }, { label: "Asia" }],
    },
  ],
};

const three = (id: string, header: string) => ({
  id,
  header,
  question: `${header}?`,
  options: [{ label: `${header} A (Recommended)` }, { label: `${header} B` }, { label: `${header} C` }],
});

const PLAN = { questions: [three("env", "Env"), three("window", "Window")] };
const ROLLOUT = { questions: [three("env", "Env"), three("window", "Window"), three("owner", "Owner")] };

const alice = { channel: "discord", userId: ALICE.id };

describe("line breaks in a reply", () => {
  it("reads one value per line for a multi-select question", async () => {
    const { broker, channelId } = await setup(world);
    const asked = broker.ask(REGIONS, {
      target: { channel: "discord", conversation: channelId },
      creator: alice,
    });
    const prompt = await promptIn(world, channelId);

    world.discord.user(ALICE).reply(channelId, prompt.id, "EU (Recommended)\nAsia");

    expect(await asked).toEqual({
      status: "answered",
      answers: { answers: { regions: ["EU (Recommended)", "Asia"] } },
    });
  });

  it("reads `1: 2` and `2: 3` on two lines as answers to both questions", async () => {
    const { broker, channelId } = await setup(world);
    const asked = broker.ask(PLAN, {
      target: { channel: "discord", conversation: channelId },
      creator: alice,
    });
    await promptIn(world, channelId);

    world.discord.user(ALICE).send(channelId, "1: 2\n2: 3");

    expect(await asked).toEqual({
      status: "answered",
      answers: { answers: { env: ["Env B"], window: ["Window C"] } },
    });
  });

  it("keeps the line breaks of a free-text answer", async () => {
    const { broker, channelId } = await setup(world);
    const asked = broker.ask(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator: alice,
    });
    const prompt = await promptIn(world, channelId);

    world.discord.user(ALICE).reply(channelId, prompt.id, "Hold it\nuntil Monday");

    expect(await asked).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Hold it\nuntil Monday"] } },
    });
    await expectSummary(world, channelId, prompt.id, `✅ Deploy: Hold it\nuntil Monday — ${mention(ALICE)}`);
  });

  it("drops a leading mention of the bot and keeps the lines after it", async () => {
    const { broker, channelId } = await setup(world);
    const asked = broker.ask(PLAN, {
      target: { channel: "discord", conversation: channelId },
      creator: alice,
    });
    await promptIn(world, channelId);

    world.discord.user(ALICE).send(channelId, `<@!${world.discord.bot.id}>\n1: 3\n2: 1`);

    expect(await asked).toMatchObject({
      answers: { answers: { env: ["Env C"], window: ["Window A (Recommended)"] } },
    });
  });
});

describe("the one-line keyed form", () => {
  it("reads `1: 2; 2: 1` (Enter sends the message on Discord) as answers to both questions", async () => {
    const { broker, channelId } = await setup(world);
    const asked = broker.ask(PLAN, {
      target: { channel: "discord", conversation: channelId },
      creator: alice,
    });
    const prompt = await promptIn(world, channelId);
    expect(prompt.content).toContain("1: 1; 2: 1");

    world.discord.user(ALICE).reply(channelId, prompt.id, "1: 2; 2: 1");

    expect(await asked).toEqual({
      status: "answered",
      answers: { answers: { env: ["Env B"], window: ["Window A (Recommended)"] } },
    });
  });
});

describe("two people at the same moment", () => {
  it("keeps both answers when they answer different questions of one prompt", async () => {
    // Each write waits a moment, so both replies read the record before either has written it.
    const inner = createMemoryStore();
    const store = {
      ...inner,
      async compareAndSet(version: number, next: Parameters<typeof inner.compareAndSet>[1]) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return inner.compareAndSet(version, next);
      },
    };
    const { broker, channelId } = await setup(world, { store, answerers: "conversation" });
    const record = await broker.create(ROLLOUT, { target: { channel: "discord", conversation: channelId } });
    const asked = broker.wait(record.id);
    await promptIn(world, channelId);

    world.discord.user(ALICE).send(channelId, "1: 1");
    world.discord.user(BOB).send(channelId, "2: 2");
    await world.discord.waitUntil(
      () => world.discord.messages(channelId).filter((m) => m.content.startsWith("Recorded")).length === 2,
    );

    expect((await broker.get(record.id))?.draft).toEqual({
      env: ["Env A (Recommended)"],
      window: ["Window B"],
    });
    world.discord.user(BOB).send(channelId, "3: 3");
    expect(await asked).toEqual({
      status: "answered",
      answers: { answers: { env: ["Env A (Recommended)"], window: ["Window B"], owner: ["Owner C"] } },
    });
  });
});
