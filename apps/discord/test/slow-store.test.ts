import { createSlowStore } from "@ask-user/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ALICE,
  BOB,
  closeWorld,
  createWorld,
  DEPLOY,
  mention,
  picked,
  promptIn,
  ROLLOUT,
  setup,
  type World,
} from "./harness.ts";

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => closeWorld(world));

const creator = { channel: "discord", userId: ALICE.id };

/** Discord dropped a first response that came too late (10062 "Unknown interaction"). */
const tooLate = () => world.discord.calls.filter((c) => c.error?.code === 10062);

describe("a store that takes 4 s per write", () => {
  it("acknowledges a tap within 3 s, records the answer after, then shows it in the message", async () => {
    const store = createSlowStore({ delayMs: 4_000 });
    const { broker, channelId } = await setup(world, { store, channel: { coordination: store } });
    const record = await broker.create(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator,
    });
    const prompt = await promptIn(world, channelId);
    store.slow = true;

    const tap = world.discord.user(ALICE).click(channelId, prompt.id, "Production");

    const response = await world.discord.waitForResponse(tap, 3_000);
    expect(response.type).toBe(6);
    expect(response.elapsed_ms).toBeLessThan(3_000);
    expect((await store.get(record.id))?.status).toBe("pending");
    expect(await broker.wait(record.id)).toMatchObject({
      answers: { answers: { deploy_target: ["Production"] } },
    });
    await world.discord.waitUntil(
      () =>
        world.discord.message(channelId, prompt.id)?.content === `✅ Deploy: Production — ${mention(ALICE)}`,
      10_000,
    );
    expect(world.discord.message(channelId, prompt.id)?.components).toEqual([]);
    expect(tooLate()).toEqual([]);
  }, 20_000);

  it("acknowledges another member's tap within 3 s, then tells them privately that it is not theirs", async () => {
    const store = createSlowStore({ delayMs: 4_000 });
    const { broker, channelId } = await setup(world, { store, channel: { coordination: store } });
    const record = await broker.create(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator,
    });
    const prompt = await promptIn(world, channelId);
    store.slow = true;

    const tap = world.discord.user(BOB).click(channelId, prompt.id, "Production");

    const response = await world.discord.waitForResponse(tap, 3_000);
    expect(response.type).toBe(6);
    const refusal = `This question is for ${mention(ALICE)}.`;
    await world.discord.waitUntil(
      () => world.discord.ephemerals(BOB.id).some((m) => m.content === refusal),
      10_000,
    );
    expect(world.discord.interaction(tap.id)?.followups.map((m) => [m.content, m.flags])).toEqual([
      [refusal, 64],
    ]);
    expect(world.discord.message(channelId, prompt.id)).toMatchObject({
      content: prompt.content,
      components: prompt.components,
    });
    expect((await store.get(record.id))?.status).toBe("pending");
    expect(tooLate()).toEqual([]);
  }, 20_000);

  it("opens the Other… modal within 3 s and records the submitted text after", async () => {
    const store = createSlowStore({ delayMs: 4_000 });
    const { broker, channelId } = await setup(world, { store, channel: { coordination: store } });
    const record = await broker.create(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator,
    });
    const prompt = await promptIn(world, channelId);
    store.slow = true;
    const alice = world.discord.user(ALICE);

    const tap = alice.click(channelId, prompt.id, "Other…");
    expect((await world.discord.waitForResponse(tap, 3_000)).type).toBe(9);
    const submit = alice.submitModal(tap, "Canary");
    expect((await world.discord.waitForResponse(submit, 3_000)).type).toBe(6);

    expect(await broker.wait(record.id)).toMatchObject({
      answers: { answers: { deploy_target: ["Canary"] } },
    });
    await world.discord.waitUntil(
      () => world.discord.message(channelId, prompt.id)?.content === `✅ Deploy: Canary — ${mention(ALICE)}`,
      10_000,
    );
    expect(tooLate()).toEqual([]);
  }, 30_000);

  it("does not edit a message twice: a deferred tap's edit is the summary, finalize skips it", async () => {
    const store = createSlowStore({ delayMs: 300 });
    const { broker, channelId } = await setup(world, { store, channel: { deferAfterMs: 50 } });
    const record = await broker.create(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator,
    });
    const asked = broker.wait(record.id);
    const prompt = await promptIn(world, channelId);
    store.slow = true;

    const tap = world.discord.user(ALICE).click(channelId, prompt.id, "Production");

    expect((await world.discord.waitForResponse(tap)).type).toBe(6);
    expect(await asked).toMatchObject({ status: "answered" });
    const summary = `✅ Deploy: Production — ${mention(ALICE)}`;
    await world.discord.waitUntil(() => world.discord.message(channelId, prompt.id)?.content === summary);
    expect(world.discord.message(channelId, prompt.id)?.components).toEqual([]);
    expect(
      world.discord.calls.filter(
        (c) => c.route === "editOriginalInteractionResponse" && c.path.includes(tap.token),
      ),
    ).toHaveLength(1);
    await broker.idle();
    expect(
      world.discord.calls.filter((c) => c.route === "editMessage" && c.path.includes(prompt.id)),
    ).toEqual([]);
  });

  it("acknowledges a choice in a form's select within 3 s, then shows it in the form", async () => {
    const store = createSlowStore({ delayMs: 4_000 });
    const { broker, channelId } = await setup(world, { store, channel: { coordination: store } });
    const record = await broker.create(ROLLOUT, {
      target: { channel: "discord", conversation: channelId },
      creator,
    });
    const prompt = await promptIn(world, channelId);
    store.slow = true;

    const choice = world.discord.user(ALICE).select(channelId, prompt.id, "Regions", ["US", "Asia"]);

    const response = await world.discord.waitForResponse(choice, 3_000);
    expect(response.type).toBe(6);
    expect(response.elapsed_ms).toBeLessThan(3_000);
    expect((await store.get(record.id))?.draft).toBeUndefined();
    await world.discord.waitUntil(
      () => picked(world.discord.message(channelId, prompt.id), "Regions").length === 2,
      10_000,
    );
    expect((await store.get(record.id))?.draft).toEqual({ regions: ["US", "Asia"] });
    expect(tooLate()).toEqual([]);
  }, 20_000);

  it("shows a deferred choice once: the deferral's edit is the form, refresh has nothing left to do", async () => {
    const store = createSlowStore({ delayMs: 300 });
    const { broker, channelId } = await setup(world, { store, channel: { deferAfterMs: 50 } });
    await broker.create(ROLLOUT, { target: { channel: "discord", conversation: channelId }, creator });
    const prompt = await promptIn(world, channelId);
    store.slow = true;

    const choice = world.discord.user(ALICE).select(channelId, prompt.id, "Env", ["Production"]);

    expect((await world.discord.waitForResponse(choice)).type).toBe(6);
    await world.discord.waitUntil(
      () => picked(world.discord.message(channelId, prompt.id), "Env").length === 1,
    );
    await broker.idle();
    expect(
      world.discord.calls.filter(
        (c) => c.route === "editOriginalInteractionResponse" && c.path.includes(choice.token),
      ),
    ).toHaveLength(1);
    expect(
      world.discord.calls.filter((c) => c.route === "editMessage" && c.path.includes(prompt.id)),
    ).toEqual([]);
  });
});
