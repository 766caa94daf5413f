// A form's message follows its shared draft wherever it changes (issue #15): core calls the channel's
// `refresh` after a text reply, another instance's tap or the web panel, and the form is edited over REST.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ALICE,
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

describe("a form's draft changed elsewhere", () => {
  it("shows a text reply's answers in the form (refresh), which taps then finish", async () => {
    const { broker, channelId } = await setup(world);
    const record = await broker.create(ROLLOUT, {
      target: { channel: "discord", conversation: channelId },
      creator: alice,
    });
    const asked = broker.wait(record.id);
    const prompt = await promptIn(world, channelId);
    const user = world.discord.user(ALICE);

    user.reply(channelId, prompt.id, "1: 2; 2: 1, 3");

    const refreshed = await world.discord.waitUntil(() => {
      const message = world.discord.message(channelId, prompt.id);
      return picked(message, "Regions").length === 2 && message;
    });
    expect(picked(refreshed, "Env")).toEqual(["Production"]);
    expect(picked(refreshed, "Regions")).toEqual(["EU (Recommended)", "Asia"]);
    expect(picked(refreshed, "Window")).toEqual([]);
    expect(refreshed.content).toContain("Selected: Env: Production · Regions: EU (Recommended), Asia");
    // The stepper still says what is missing, as a reply to the person.
    await world.discord.waitUntil(() =>
      world.discord.messages(channelId).find((m) => m.content.startsWith("Recorded: Env: Production")),
    );

    await world.discord.waitForResponse(user.select(channelId, prompt.id, "Window", ["Weekend"]));
    user.click(channelId, prompt.id, "Send");

    expect(await asked).toEqual({
      status: "answered",
      answers: {
        answers: { env: ["Production"], regions: ["EU (Recommended)", "Asia"], window: ["Weekend"] },
      },
    });
  });

  it("shows a change made by another instance's tap (refresh over REST), once", async () => {
    const { broker, channelId } = await setup(world);
    const record = await broker.create(ROLLOUT, {
      target: { channel: "discord", conversation: channelId },
      creator: alice,
    });
    const prompt = await promptIn(world, channelId);

    await broker.handleAction({
      channel: "discord",
      conversation: channelId,
      userId: ALICE.id,
      data: selectsOf(prompt)[1]?.custom_id ?? "",
      values: [1],
    });
    await broker.idle();

    expect(picked(world.discord.message(channelId, prompt.id), "Regions")).toEqual(["US"]);
    expect(editsOf(world, prompt.id)).toHaveLength(1);
    expect((await broker.get(record.id))?.draft).toEqual({ regions: ["US"] });
  });

  it("never puts a form back over the summary: a late refresh of an ended question edits nothing", async () => {
    const { broker, mounted, channelId } = await setup(world);
    const record = await broker.create(ROLLOUT, {
      target: { channel: "discord", conversation: channelId },
      creator: alice,
    });
    const stale = { ...record, draft: { env: ["Production"] } };
    const prompt = await promptIn(world, channelId);
    await broker.skip(record.id, { channel: "discord", userId: ALICE.id, displayName: mention(ALICE) });
    const summary = `⏭ Env · Regions · Window — skipped by ${mention(ALICE)}`;
    await expectSummary(world, channelId, prompt.id, summary);
    const delivery = record.deliveries[0];
    if (!delivery) throw new Error("no delivery");

    await mounted.refresh?.({ record: stale, delivery, locale: "en" });

    expect(world.discord.message(channelId, prompt.id)?.content).toBe(summary);
    expect(editsOf(world, prompt.id)).toHaveLength(1);
  });
});
