import { decodeAction } from "@ask-user/core/channel";
import { buttonsOf } from "@ask-user/testkit/discord";
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

// The creator as a host passes it: the channel names them (`<@id>`).
const creator = (user: { id: string; username: string }) => ({ channel: "discord", userId: user.id });

describe("a single-select question in a guild channel", () => {
  it("shows the question, the descriptions, a Discord timestamp and the buttons in action rows", async () => {
    const { broker, channelId } = await setup(world);
    const record = await broker.create(DEPLOY, { target: { channel: "discord", conversation: channelId } });
    const prompt = await promptIn(world, channelId);

    const seconds = Math.floor(record.expiresAt / 1000);
    expect(prompt.content).toBe(
      [
        "**Deploy**",
        "Where should I deploy the release?",
        "• **Staging (Recommended)** — Safe first step",
        "• **Production** — Goes live at once",
        "• **Nowhere**",
        `-# Expires at <t:${seconds}:t> (<t:${seconds}:R>).`,
      ].join("\n"),
    );
    expect(buttonRows(prompt)).toEqual([
      ["Staging (Recommended)", "Production", "Nowhere"],
      ["Other…", "Skip"],
    ]);
    const actions = buttonsOf(prompt).map((b) => decodeAction(b.custom_id)?.action);
    expect(actions).toEqual([
      { kind: "option", index: 0 },
      { kind: "option", index: 1 },
      { kind: "option", index: 2 },
      { kind: "other" },
      { kind: "skip" },
    ]);
    expect(buttonsOf(prompt).map((b) => b.style)).toEqual([1, 2, 2, 2, 2]);
    expect(prompt.allowed_mentions).toEqual({ parse: [] });
  });

  it("says whom the question is for in a shared channel, and pings nobody", async () => {
    const { broker, channelId } = await setup(world);
    world.discord.user(ALICE);
    await broker.create(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator: creator(ALICE),
    });
    const prompt = await promptIn(world, channelId);

    expect(prompt.content.split("\n").slice(0, 2)).toEqual([`For ${mention(ALICE)}`, "**Deploy**"]);
    expect(prompt.pings).toEqual({ everyone: false, users: [], roles: [] });
    expect(world.discord.messageText(channelId, prompt.id).split("\n")[0]).toBe("For @alice");
  });

  it("says nothing of whom in a DM", async () => {
    const { broker } = await setup(world);
    world.discord.user(ALICE);
    await broker.create(DEPLOY, {
      target: { channel: "discord", conversation: `user:${ALICE.id}` },
      creator: creator(ALICE),
    });
    const dm = await world.discord.waitUntil(() => world.discord.dmChannelId(ALICE.id));
    expect((await promptIn(world, dm)).content.startsWith("**Deploy**")).toBe(true);
  });

  for (const [index, label] of ["Staging (Recommended)", "Production", "Nowhere"].entries()) {
    it(`answers with option ${index + 1} on its tap and updates the message in place`, async () => {
      const { broker, channelId } = await setup(world);
      const alice = world.discord.user(ALICE);
      const asked = broker.ask(DEPLOY, {
        target: { channel: "discord", conversation: channelId },
        creator: creator(ALICE),
      });
      const prompt = await promptIn(world, channelId);

      const tap = alice.click(channelId, prompt.id, label);

      expect(await asked).toEqual({ status: "answered", answers: { answers: { deploy_target: [label] } } });
      expect((await world.discord.waitForResponse(tap)).type).toBe(7);
      const after = world.discord.message(channelId, prompt.id);
      expect(after?.content).toBe(`✅ Deploy: ${label.replace(/[()]/g, "$&")} — ${mention(ALICE)}`);
      expect(after?.components).toEqual([]);
      await broker.idle();
      // The tap already updated the message: finalize did not edit it again.
      expect(
        world.discord.calls.filter((c) => c.route === "editMessage" && c.path.includes(prompt.id)),
      ).toEqual([]);
    });
  }

  it("opens a modal for Other… and answers with the submitted text", async () => {
    const { broker, channelId } = await setup(world);
    const alice = world.discord.user(ALICE);
    const asked = broker.ask(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator: creator(ALICE),
    });
    const prompt = await promptIn(world, channelId);

    const tap = alice.click(channelId, prompt.id, "Other…");
    expect((await world.discord.waitForResponse(tap)).type).toBe(9);
    const modal = world.discord.interaction(tap.id)?.modal;
    expect(modal?.title).toBe("Deploy");
    expect(modal?.components[0]?.components?.[0]).toMatchObject({
      type: 4,
      style: 2,
      label: "Where should I deploy the release?",
      required: true,
      max_length: 4000,
      placeholder: "Your answer",
    });
    expect(() => alice.submitModal(tap, "   ")).toThrow(/required/);
    const submit = alice.submitModal(tap, "  Canary on eu-west  ");

    expect(await asked).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Canary on eu-west"] } },
    });
    expect((await world.discord.waitForResponse(submit)).type).toBe(7);
    expect(world.discord.message(channelId, prompt.id)).toMatchObject({
      content: `✅ Deploy: Canary on eu-west — ${mention(ALICE)}`,
      components: [],
    });
  });

  it("skips the question on Skip", async () => {
    const { broker, channelId } = await setup(world);
    const asked = broker.ask(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator: creator(ALICE),
    });
    const prompt = await promptIn(world, channelId);

    world.discord.user(ALICE).click(channelId, prompt.id, "Skip");

    expect(await asked).toEqual({ status: "no_answer", reason: "skipped" });
    await expectSummary(world, channelId, prompt.id, `⏭ Deploy — skipped by ${mention(ALICE)}`);
  });

  it("refuses another member's tap with an ephemeral reply and changes nothing", async () => {
    const { broker, channelId } = await setup(world);
    const record = await broker.create(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator: creator(ALICE),
    });
    const prompt = await promptIn(world, channelId);

    const tap = world.discord.user(BOB).click(channelId, prompt.id, "Production");

    const response = await world.discord.waitForResponse(tap);
    expect(response.type).toBe(4);
    expect(response.data).toMatchObject({ content: `This question is for ${mention(ALICE)}.`, flags: 64 });
    expect(world.discord.ephemerals(BOB.id).map((m) => m.content)).toContain(
      `This question is for ${mention(ALICE)}.`,
    );
    expect(world.discord.message(channelId, prompt.id)).toMatchObject({
      content: prompt.content,
      components: prompt.components,
      edited_timestamp: null,
    });
    expect((await broker.get(record.id))?.status).toBe("pending");
    // Bob's "Other…" does not open a modal either.
    const other = world.discord.user(BOB).click(channelId, prompt.id, "Other…");
    expect((await world.discord.waitForResponse(other)).type).toBe(4);
  });

  it("tells a late tap who already answered", async () => {
    const { broker, channelId } = await setup(world, { answerers: "conversation" });
    const asked = broker.ask(DEPLOY, { target: { channel: "discord", conversation: channelId } });
    const prompt = await promptIn(world, channelId);
    world.discord.user(ALICE).click(channelId, prompt.id, "Production");
    await asked;

    const late = world.discord
      .user(BOB)
      .click(channelId, prompt.id, "Staging (Recommended)", { stale: true });

    const response = await world.discord.waitForResponse(late);
    expect(response).toMatchObject({
      type: 4,
      data: { content: `This question was already answered by ${mention(ALICE)}.`, flags: 64 },
    });
    expect(world.discord.message(channelId, prompt.id)?.content).toBe(
      `✅ Deploy: Production — ${mention(ALICE)}`,
    );
  });

  it("answers refusals in the tapper's Discord locale", async () => {
    const { broker, channelId } = await setup(world);
    await broker.create(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator: creator(ALICE),
    });
    const prompt = await promptIn(world, channelId);

    const tap = world.discord
      .user({ id: "200000000000000003", username: "carla", locale: "de" })
      .click(channelId, prompt.id, "Production");

    expect((await world.discord.waitForResponse(tap)).data?.content).toBe(
      `Diese Frage ist für ${mention(ALICE)}.`,
    );
  });

  it("renders German prompts with German buttons", async () => {
    const { broker, channelId } = await setup(world, { locale: "de" });
    await broker.create(DEPLOY, { target: { channel: "discord", conversation: channelId } });
    const prompt = await promptIn(world, channelId);
    expect(buttonRows(prompt)[1]).toEqual(["Sonstiges…", "Überspringen"]);
    expect(prompt.content).toMatch(/-# Läuft ab um <t:\d+:t> \(<t:\d+:R>\)\.$/);
  });

  it("pings nobody when agent text says @everyone, and shows it as text", async () => {
    const { broker, channelId } = await setup(world);
    const input = {
      questions: [
        {
          id: "ping",
          header: "@everyone",
          question: "Tell @here and <@200000000000000002> and <@&300> about **this**?",
          options: [{ label: "@everyone now", description: "ping @everyone" }, { label: "Later" }],
        },
      ],
    };
    await broker.create(input, { target: { channel: "discord", conversation: channelId } });
    const prompt = await promptIn(world, channelId);

    expect(prompt.pings).toEqual({ everyone: false, users: [], roles: [] });
    expect(prompt.mention_everyone).toBe(false);
    expect(prompt.allowed_mentions).toEqual({ parse: [] });
    expect(buttonRows(prompt)[0]).toEqual(["@everyone now", "Later"]);
    expect(prompt.content).toContain(
      "Tell @\u200bhere and \\<@200000000000000002\\> and \\<@&300\\> about \\*\\*this\\*\\*?",
    );
    expect(prompt.content).toContain("• **@\u200beveryone now** — ping @\u200beveryone");
  });

  it("shortens an over-long prompt to 2000 characters, descriptions first, and keeps the deadline", async () => {
    const { broker, channelId } = await setup(world);
    const long = "x".repeat(500);
    const input = {
      questions: [
        {
          id: "long",
          header: "Long",
          question: `${"Why? ".repeat(190)}end`,
          options: ["A", "B", "C", "D"].map((label) => ({ label, description: long })),
        },
      ],
    };
    await broker.create(input, { target: { channel: "discord", conversation: channelId } });
    const prompt = await promptIn(world, channelId);
    expect([...prompt.content].length).toBeLessThanOrEqual(2000);
    expect(prompt.content).toContain("end");
    expect(prompt.content).toMatch(/• \*\*A\*\* — x+…/);
    expect(prompt.content).toMatch(/<t:\d+:R>\)\.$/);
  });
});
