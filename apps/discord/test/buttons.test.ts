import { decodeAction } from "@ask-user/core";
import { buttonsOf } from "@ask-user/testkit/discord";
import { Events, type Interaction, type Message } from "discord.js";
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
  waitFor,
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
    await expectSummary(world, channelId, prompt.id, `⏭ Skipped — ${mention(ALICE)}`);
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

  it("defers a tap when the store is slow, then edits the message", async () => {
    const { createMemoryStore } = await import("@ask-user/core");
    const inner = createMemoryStore();
    let slow = false;
    const store = {
      ...inner,
      async compareAndSet(version: number, next: Parameters<typeof inner.compareAndSet>[1]) {
        if (slow) await new Promise((resolve) => setTimeout(resolve, 300));
        return inner.compareAndSet(version, next);
      },
    };
    const { broker, channelId } = await setup(world, { store, channel: { deferAfterMs: 50 } });
    const record = await broker.create(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator: creator(ALICE),
    });
    const asked = broker.wait(record.id);
    const prompt = await promptIn(world, channelId);
    slow = true;

    const tap = world.discord.user(ALICE).click(channelId, prompt.id, "Production");

    expect((await world.discord.waitForResponse(tap)).type).toBe(6);
    expect(await asked).toMatchObject({ status: "answered" });
    await world.discord.waitFor((c) => c.route === "editOriginalInteractionResponse");
    expect(world.discord.message(channelId, prompt.id)).toMatchObject({
      content: `✅ Deploy: Production — ${mention(ALICE)}`,
      components: [],
    });
    await broker.idle();
    expect(
      world.discord.calls.filter((c) => c.route === "editMessage" && c.path.includes(prompt.id)),
    ).toEqual([]);
  });
});

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
        world.discord.messages(channelId).find((m) => m.content.startsWith("**Deploy**")),
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
