// "What people see" in the README: a three-question prompt as the fake Telegram renders it as text
// (pending, half-filled, answered, skipped, expired), made here through the real grammY and compared with
// the README, so the pictures cannot rot. `UPDATE_SCREENSHOTS=1` writes them into the README instead.
import { createFakeClock } from "@ask-user/core/testing";
import { PICTURES_END, PICTURES_START, picture, readmePictures } from "@ask-user/testkit/pictures";
import { expect, it } from "vitest";
import { ADA, ask, edited, GROUP, ROLLOUT, result, start, tapAndSee } from "./harness.ts";

const README = new URL("../README.md", import.meta.url);

/** Each picture, made by the steps a person takes: Ada answers in a group, where the prompt is for her. */
async function screenshots(): Promise<string> {
  const clock = createFakeClock(Date.UTC(2025, 0, 15, 14, 0));
  const running = await start("polling", { clock });
  const ada = running.tg.user(ADA);
  const creator = { creator: { userId: String(ADA.id), displayName: "@ada" } };
  const shots: string[] = [];

  const { record, message } = await ask(running, ROLLOUT, String(GROUP), creator);
  const see = () => running.tg.messageText(GROUP, message.message_id);
  const tap = (label: string) => tapAndSee(running, ada, GROUP, message.message_id, label);
  shots.push(
    picture("Pending: the first question, its options as buttons, Other…, Next ›, Skip, Send", see()),
  );

  await tap("Production");
  await tap("Next ›");
  await tap("EU (Recommended)");
  await tap("Asia");
  shots.push(
    picture("Half-filled: Env picked, then Next › and two regions (✓ on the buttons and above)", see()),
  );

  await tap("Next ›");
  await tap("Tonight (Recommended)");
  await tap("Send");
  await result(running, record.id);
  await edited(running, GROUP, message.message_id);
  shots.push(picture("Answered (Send): the summary, without buttons", see()));

  const skipped = await ask(running, ROLLOUT, String(GROUP), creator);
  await tapAndSee(running, ada, GROUP, skipped.message.message_id, "Skip");
  await edited(running, GROUP, skipped.message.message_id);
  shots.push(picture("Skipped", running.tg.messageText(GROUP, skipped.message.message_id)));

  const expired = await ask(running, ROLLOUT, String(GROUP), creator);
  await clock.advance(expired.record.expiresAt - clock.now());
  await result(running, expired.record.id);
  await edited(running, GROUP, expired.message.message_id);
  shots.push(picture("Expired", running.tg.messageText(GROUP, expired.message.message_id)));
  return shots.join("\n\n");
}

it("shows the README's pictures of a three-question form as Telegram shows them now", async () => {
  const generated = await screenshots();
  const { found, current, written } = readmePictures(README, generated);
  expect(found, `README.md needs the markers ${PICTURES_START} … ${PICTURES_END}`).toBe(true);
  if (!written)
    expect(current, "README pictures are out of date: run with UPDATE_SCREENSHOTS=1").toBe(generated);
});
