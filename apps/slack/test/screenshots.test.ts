/**
 * The README's "What people see": a three-question prompt as Slack shows it (the fake renders a message
 * as text) — pending, half-filled, answered, skipped, expired. The test compares them with the README,
 * so they cannot rot; `UPDATE_SCREENSHOTS=1` writes them instead.
 */
import { createFakeClock } from "@ask-user/core/testing";
import { PICTURES_END, PICTURES_START, picture, readmePictures } from "@ask-user/testkit/pictures";
import { describe, expect, it } from "vitest";
import { RELEASE, waitForRender } from "./form-fixtures.ts";
import { ALICE, CHANNEL, type World, waitForText, world } from "./harness.ts";

const README = new URL("../README.md", import.meta.url);

/** Asks the release prompt in #general for Alice (named by the channel: `<@U0ALICE>`). */
async function asked(w: World) {
  const record = await w.broker.create(RELEASE, {
    target: { channel: "slack", conversation: CHANNEL },
    creator: { channel: "slack", userId: ALICE.id },
  });
  return { record, ts: record.deliveries[0]?.messageId ?? "" };
}

describe("screenshots", () => {
  it("the README shows the form and its summaries as the fake Slack renders them", async () => {
    const clock = createFakeClock(Date.UTC(2026, 0, 2, 13, 50)); // expires 14:05 UTC
    const w = await world("socket", { clock });
    const shots: string[] = [];

    const first = await asked(w);
    shots.push(picture("Pending — a shared channel, for Alice", w.slack.render(CHANNEL, first.ts)));
    await w.alice.choose(CHANNEL, first.ts, "Production");
    await w.alice.choose(CHANNEL, first.ts, "EU");
    await w.alice.choose(CHANNEL, first.ts, "APAC");
    const half = await waitForRender(w, first.ts, "(•) Production", "[✓] EU\n[ ] US\n[✓] APAC");
    shots.push(
      picture("Half-filled — Env and Regions tapped (Send now would say “Still needed: Window.”)", half),
    );
    await w.alice.choose(CHANNEL, first.ts, "Tonight");
    await w.alice.press(CHANNEL, first.ts, "Send");
    const answered = "✅ Env: Production · Regions: EU, APAC · Window: Tonight — @alice";
    await waitForText(w.slack, CHANNEL, first.ts, answered);
    shots.push(picture("Answered — Send", w.slack.render(CHANNEL, first.ts)));

    const second = await asked(w);
    await w.alice.press(CHANNEL, second.ts, "Skip");
    await waitForText(w.slack, CHANNEL, second.ts, "⏭ Env · Regions · Window — skipped by @alice");
    shots.push(picture("Skipped", w.slack.render(CHANNEL, second.ts)));

    const third = await asked(w);
    await clock.advance(15 * 60_000);
    await waitForText(w.slack, CHANNEL, third.ts, "⌛ Env · Regions · Window — expired");
    shots.push(picture("Expired", w.slack.render(CHANNEL, third.ts)));

    const { found, current, written } = readmePictures(README, shots.join("\n\n"));
    expect(found, `README.md needs the markers ${PICTURES_START} … ${PICTURES_END}`).toBe(true);
    if (!written)
      expect(current, "README pictures are out of date: run with UPDATE_SCREENSHOTS=1").toBe(
        shots.join("\n\n"),
      );
  });
});
