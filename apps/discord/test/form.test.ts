// Native forms (issue #15): a prompt with several questions or a multi-select one gets a string select
// per question, Other… per question, Skip and Send; the selections live in the shared draft.
import { decodeAction } from "@ask-user/core/channel";
import { buttonsOf } from "@ask-user/testkit/discord";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ALICE,
  BOB,
  buttonRows,
  closeWorld,
  createWorld,
  editsOf,
  expectSummary,
  mention,
  picked,
  promptIn,
  ROLLOUT,
  selectsOf,
  setup,
  type World,
} from "./harness.ts";

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => closeWorld(world));

const alice = { channel: "discord", userId: ALICE.id };

describe("a three-question prompt with a multi-select", () => {
  it("shows the readable text, a string select per question, then Other… per question, Skip and Send", async () => {
    const { broker, channelId } = await setup(world);
    const record = await broker.create(ROLLOUT, {
      target: { channel: "discord", conversation: channelId },
      creator: alice,
    });
    const prompt = await promptIn(world, channelId);

    expect(prompt.content.split("\n").slice(0, 5)).toEqual([
      `For ${mention(ALICE)}`,
      "1) Env: Which environment gets the release?",
      "   1\\. Staging (Recommended) — Safe first step",
      "   2\\. Production — Goes live at once",
      "",
    ]);
    expect(prompt.content).toContain("Reply with one line per question, e.g. 1: 1; 2: 1; 3: 1");
    expect(prompt.content).toMatch(/\n-# Expires at <t:\d+:t> \(<t:\d+:R>\)\.$/);
    expect(prompt.components).toHaveLength(4);
    const selects = selectsOf(prompt);
    expect(selects.map((s) => [s.placeholder, s.min_values, s.max_values])).toEqual([
      ["Env", 0, 1],
      ["Regions", 0, 3],
      ["Window", 0, 1],
    ]);
    expect(selects.map((s) => decodeAction(s.custom_id))).toEqual(
      record.tokens.map((token) => ({ token, action: { kind: "choose" } })),
    );
    expect(selects[0]?.options).toEqual([
      { label: "Staging (Recommended)", value: "0", description: "Safe first step" },
      { label: "Production", value: "1", description: "Goes live at once" },
    ]);
    expect(buttonRows(prompt).at(-1)).toEqual([
      "Env: Other…",
      "Regions: Other…",
      "Window: Other…",
      "Skip",
      "Send",
    ]);
    expect(buttonsOf(prompt).map((b) => decodeAction(b.custom_id)?.action.kind)).toEqual([
      "other",
      "other",
      "other",
      "skip",
      "submit",
    ]);
    expect(buttonsOf(prompt).map((b) => b.style)).toEqual([2, 2, 2, 2, 1]);
  });

  it("is answered by taps alone: selects, Other… through its modal, then Send", async () => {
    const { broker, channelId } = await setup(world);
    const asked = broker.ask(ROLLOUT, {
      target: { channel: "discord", conversation: channelId },
      creator: alice,
    });
    const prompt = await promptIn(world, channelId);
    const user = world.discord.user(ALICE);

    const env = user.select(channelId, prompt.id, "Env", ["Production"]);
    expect(await world.discord.waitForResponse(env)).toMatchObject({ type: 7 });
    let shown = world.discord.message(channelId, prompt.id);
    expect(picked(shown, "Env")).toEqual(["Production"]);
    expect(shown?.content).toContain("\nSelected: Env: Production\n-# Expires at");

    const regions = user.select(channelId, prompt.id, "Regions", ["Asia", "EU (Recommended)"]);
    expect((await world.discord.waitForResponse(regions)).type).toBe(7);
    shown = world.discord.message(channelId, prompt.id);
    expect(picked(shown, "Regions")).toEqual(["EU (Recommended)", "Asia"]);
    expect(shown?.content).toContain("Selected: Env: Production · Regions: EU (Recommended), Asia");

    const other = user.click(channelId, prompt.id, "Window: Other…");
    expect((await world.discord.waitForResponse(other)).type).toBe(9);
    expect(world.discord.interaction(other.id)?.modal?.title).toBe("Window");
    const typed = user.submitModal(other, "Friday 6 pm");
    expect((await world.discord.waitForResponse(typed)).type).toBe(7);
    shown = world.discord.message(channelId, prompt.id);
    expect(shown?.content).toContain("Window: Friday 6 pm");
    expect(picked(shown, "Window")).toEqual([]);

    const send = user.click(channelId, prompt.id, "Send");

    expect(await asked).toEqual({
      status: "answered",
      answers: {
        answers: { env: ["Production"], regions: ["EU (Recommended)", "Asia"], window: ["Friday 6 pm"] },
      },
    });
    expect((await world.discord.waitForResponse(send)).type).toBe(7);
    await expectSummary(
      world,
      channelId,
      prompt.id,
      `✅ Env: Production · Regions: EU (Recommended), Asia · Window: Friday 6 pm — ${mention(ALICE)}`,
    );
    await broker.idle();
    // Every tap updated the message itself: no REST edit of the prompt followed (refresh had nothing new).
    expect(editsOf(world, prompt.id)).toEqual([]);
  });

  it("keeps every question and who answered when one answer is long (2,950 characters under Regions: Other…)", async () => {
    const { broker, channelId } = await setup(world);
    const asked = broker.ask(ROLLOUT, {
      target: { channel: "discord", conversation: channelId },
      creator: alice,
    });
    const prompt = await promptIn(world, channelId);
    const user = world.discord.user(ALICE);
    const long = "word ".repeat(590).trim(); // 2,949 characters
    await world.discord.waitForResponse(user.select(channelId, prompt.id, "Env", ["Production"]));
    const other = user.click(channelId, prompt.id, "Regions: Other…");
    await world.discord.waitForResponse(other);
    await world.discord.waitForResponse(user.submitModal(other, long));
    await world.discord.waitForResponse(
      user.select(channelId, prompt.id, "Window", ["Tonight (Recommended)"]),
    );

    // The form's "Selected: …" line shortens the long answer, not the questions after it.
    const selected = world.discord.message(channelId, prompt.id)?.content.split("\n").at(-2) ?? "";
    expect(selected).toMatch(/^Selected: Env: Production · Regions: word word .*…/);
    expect(selected.endsWith(" · Window: Tonight (Recommended)")).toBe(true);
    expect([...selected].length).toBeLessThanOrEqual(300);

    await world.discord.waitForResponse(user.click(channelId, prompt.id, "Send"));
    expect((await asked).status).toBe("answered");
    const summary = await world.discord.waitUntil(() => {
      const message = world.discord.message(channelId, prompt.id);
      return message?.components?.length === 0 ? message.content : undefined;
    });
    expect(summary).toMatch(/^✅ Env: Production · Regions: word word .*…/);
    expect(summary.endsWith(` · Window: Tonight (Recommended) — ${mention(ALICE)}`)).toBe(true);
    expect([...summary].length).toBeLessThanOrEqual(2000);
  });

  it("tells who sends an incomplete form what is still needed, only them, and keeps the form", async () => {
    const { broker, channelId } = await setup(world);
    const record = await broker.create(ROLLOUT, {
      target: { channel: "discord", conversation: channelId },
      creator: alice,
    });
    const prompt = await promptIn(world, channelId);
    const user = world.discord.user(ALICE);
    await world.discord.waitForResponse(user.select(channelId, prompt.id, "Regions", ["US"]));
    const before = world.discord.message(channelId, prompt.id);

    const send = user.click(channelId, prompt.id, "Send");

    expect(await world.discord.waitForResponse(send)).toMatchObject({
      type: 4,
      data: { content: "Still needed: Env, Window.", flags: 64 },
    });
    expect(world.discord.message(channelId, prompt.id)).toEqual(before);
    expect((await broker.get(record.id))?.status).toBe("pending");
  });

  it("clears a selection that is emptied, and keeps free text typed for a multi-select question", async () => {
    const { broker, channelId } = await setup(world);
    const record = await broker.create(ROLLOUT, {
      target: { channel: "discord", conversation: channelId },
      creator: alice,
    });
    const prompt = await promptIn(world, channelId);
    const user = world.discord.user(ALICE);
    await world.discord.waitForResponse(user.select(channelId, prompt.id, "Env", ["Staging (Recommended)"]));
    const other = user.click(channelId, prompt.id, "Regions: Other…");
    await world.discord.waitForResponse(other);
    await world.discord.waitForResponse(user.submitModal(other, "Mars"));
    await world.discord.waitForResponse(user.select(channelId, prompt.id, "Regions", ["US"]));

    await world.discord.waitForResponse(user.select(channelId, prompt.id, "Env", []));

    expect((await broker.get(record.id))?.draft).toEqual({ regions: ["US", "Mars"] });
    const shown = world.discord.message(channelId, prompt.id);
    expect(picked(shown, "Env")).toEqual([]);
    expect(picked(shown, "Regions")).toEqual(["US"]);
    expect(shown?.content).toContain("Selected: Regions: US, Mars");
  });

  it("refuses another member's selection privately and stores nothing", async () => {
    const { broker, channelId } = await setup(world);
    const record = await broker.create(ROLLOUT, {
      target: { channel: "discord", conversation: channelId },
      creator: alice,
    });
    const prompt = await promptIn(world, channelId);

    const tap = world.discord.user(BOB).select(channelId, prompt.id, "Env", ["Production"]);

    expect(await world.discord.waitForResponse(tap)).toMatchObject({
      type: 4,
      data: { content: `This question is for ${mention(ALICE)}.`, flags: 64 },
    });
    expect((await broker.get(record.id))?.draft).toBeUndefined();
    expect(world.discord.message(channelId, prompt.id)?.edited_timestamp).toBeNull();
  });

  it("skips the whole prompt on Skip", async () => {
    const { broker, channelId } = await setup(world);
    const asked = broker.ask(ROLLOUT, {
      target: { channel: "discord", conversation: channelId },
      creator: alice,
    });
    const prompt = await promptIn(world, channelId);
    await world.discord.waitForResponse(
      world.discord.user(ALICE).select(channelId, prompt.id, "Env", ["Production"]),
    );

    world.discord.user(ALICE).click(channelId, prompt.id, "Skip");

    expect(await asked).toEqual({ status: "no_answer", reason: "skipped" });
    await expectSummary(
      world,
      channelId,
      prompt.id,
      `⏭ Env · Regions · Window — skipped by ${mention(ALICE)}`,
    );
  });
});

describe("a single multi-select question", () => {
  it("gets one select and one Other… button", async () => {
    const { broker, channelId } = await setup(world, { answerers: "conversation" });
    const regions = { questions: [ROLLOUT.questions[1]] };
    const asked = broker.ask(regions, { target: { channel: "discord", conversation: channelId } });
    const prompt = await promptIn(world, channelId);
    expect(selectsOf(prompt).map((s) => [s.placeholder, s.max_values])).toEqual([["Regions", 3]]);
    expect(buttonRows(prompt).slice(1)).toEqual([["Other…", "Skip", "Send"]]);
    expect(prompt.content).not.toContain("For ");

    const user = world.discord.user(BOB);
    await world.discord.waitForResponse(user.select(channelId, prompt.id, "Regions", ["US", "Asia"]));
    user.click(channelId, prompt.id, "Send");

    expect(await asked).toEqual({ status: "answered", answers: { answers: { regions: ["US", "Asia"] } } });
    await expectSummary(world, channelId, prompt.id, `✅ Regions: US, Asia — ${mention(BOB)}`);
  });
});
