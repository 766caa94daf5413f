// "What people see" in the README: a three-question prompt as the fake Discord renders it as text
// (pending, half-filled, answered, skipped, expired), made here through the real discord.js and compared
// with the README, so the pictures cannot rot. `UPDATE_SCREENSHOTS=1` writes them into the README instead.
import { createFakeClock } from "@ask-user/core/testing";
import { PICTURES_END, PICTURES_START, picture, readmePictures } from "@ask-user/testkit/pictures";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ALICE, closeWorld, createWorld, promptIn, ROLLOUT, setup, type World } from "./harness.ts";

const README = new URL("../README.md", import.meta.url);

const clock = createFakeClock(Date.UTC(2025, 0, 15, 14, 0));
let world: World;
beforeAll(async () => {
  world = await createWorld({ fake: { now: () => clock.now() } });
});
afterAll(() => closeWorld(world));

/** Each picture, made by the steps a person takes. */
async function screenshots(): Promise<string> {
  const shots: string[] = [];
  const creator = { channel: "discord", userId: ALICE.id };
  const alice = world.discord.user({ ...ALICE, global_name: "Alice" });

  const { broker, channelId } = await setup(world, { clock });
  const asked = broker.ask(ROLLOUT, { target: { channel: "discord", conversation: channelId }, creator });
  const prompt = await promptIn(world, channelId);
  const see = () => world.discord.messageText(channelId, prompt.id);
  shots.push(
    picture("Pending: readable text, a select per question, Other… per question, Skip, Send", see()),
  );

  await world.discord.waitForResponse(alice.select(channelId, prompt.id, "Env", ["Production"]));
  await world.discord.waitForResponse(
    alice.select(channelId, prompt.id, "Regions", ["EU (Recommended)", "Asia"]),
  );
  shots.push(picture("Half-filled: the draft selected in the selects and listed above the deadline", see()));

  const other = alice.click(channelId, prompt.id, "Window: Other…");
  await world.discord.waitForResponse(other);
  await world.discord.waitForResponse(alice.submitModal(other, "Friday 6 pm"));
  await world.discord.waitForResponse(alice.click(channelId, prompt.id, "Send"));
  await asked;
  shots.push(picture("Answered (Window typed in the Other… modal, then Send)", see()));

  // One broker for all three prompts: two channels mounted on one client would both take each tap.
  const target = { channel: "discord", conversation: channelId };
  const skipped = await broker.create(ROLLOUT, { target, creator });
  const skippedId = skipped.deliveries[0]?.messageId ?? "";
  await world.discord.waitForResponse(alice.click(channelId, skippedId, "Skip"));
  await broker.wait(skipped.id);
  shots.push(picture("Skipped", world.discord.messageText(channelId, skippedId)));

  const expired = await broker.create(ROLLOUT, { target, creator });
  await clock.advance(expired.expiresAt - clock.now());
  await broker.wait(expired.id);
  await broker.idle();
  shots.push(
    picture("Expired", world.discord.messageText(channelId, expired.deliveries[0]?.messageId ?? "")),
  );
  return shots.join("\n\n");
}

it("shows the README's pictures of a three-question form as Discord shows them now", async () => {
  const generated = await screenshots();
  const { found, current, written } = readmePictures(README, generated);
  expect(found, `README.md needs the markers ${PICTURES_START} … ${PICTURES_END}`).toBe(true);
  if (!written)
    expect(current, "README pictures are out of date: run with UPDATE_SCREENSHOTS=1").toBe(generated);
});
