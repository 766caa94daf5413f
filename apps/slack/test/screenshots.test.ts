/**
 * The README's "What people see": a three-question prompt as Slack shows it (the fake renders a message
 * as text) — pending, half-filled, answered, skipped, expired. The test compares them with the README,
 * so they cannot rot; `UPDATE_README=1` writes them instead.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createFakeClock } from "@ask-user/core/testing";
import { describe, expect, it } from "vitest";
import { RELEASE, waitForRender } from "./form-fixtures.ts";
import { ALICE, CHANNEL, type World, waitForText, world } from "./harness.ts";

const README = fileURLToPath(new URL("../README.md", import.meta.url));
const START = "<!-- screenshots: written by test/screenshots.test.ts (UPDATE_README=1 rewrites them) -->";
const END = "<!-- /screenshots -->";

/** Asks the release prompt in #general for Alice (named by the channel: `<@U0ALICE>`). */
async function asked(w: World) {
  const record = await w.broker.create(RELEASE, {
    target: { channel: "slack", conversation: CHANNEL },
    creator: { channel: "slack", userId: ALICE.id },
  });
  return { record, ts: record.deliveries[0]?.messageId ?? "" };
}

function section(title: string, shown: string): string {
  return `**${title}**\n\n\`\`\`text\n${shown}\n\`\`\``;
}

describe("screenshots", () => {
  it("the README shows the form and its summaries as the fake Slack renders them", async () => {
    const clock = createFakeClock(Date.UTC(2026, 0, 2, 13, 50)); // expires 14:05 UTC
    const w = await world("socket", { clock });
    const shots: string[] = [];

    const first = await asked(w);
    shots.push(section("Pending — a shared channel, for Alice", w.slack.render(CHANNEL, first.ts)));
    await w.alice.choose(CHANNEL, first.ts, "Production");
    await w.alice.choose(CHANNEL, first.ts, "EU");
    await w.alice.choose(CHANNEL, first.ts, "APAC");
    const half = await waitForRender(w, first.ts, "(•) Production", "[✓] EU\n[ ] US\n[✓] APAC");
    shots.push(
      section("Half-filled — Env and Regions tapped (Send now would say “Still needed: Window.”)", half),
    );
    await w.alice.choose(CHANNEL, first.ts, "Tonight");
    await w.alice.press(CHANNEL, first.ts, "Send");
    const answered = "✅ Env: Production · Regions: EU, APAC · Window: Tonight — @alice";
    await waitForText(w.slack, CHANNEL, first.ts, answered);
    shots.push(section("Answered — Send", w.slack.render(CHANNEL, first.ts)));

    const second = await asked(w);
    await w.alice.press(CHANNEL, second.ts, "Skip");
    await waitForText(w.slack, CHANNEL, second.ts, "⏭ Env · Regions · Window — skipped by @alice");
    shots.push(section("Skipped", w.slack.render(CHANNEL, second.ts)));

    const third = await asked(w);
    await clock.advance(15 * 60_000);
    await waitForText(w.slack, CHANNEL, third.ts, "⌛ Env · Regions · Window — expired");
    shots.push(section("Expired", w.slack.render(CHANNEL, third.ts)));

    const block = `${START}\n\n${shots.join("\n\n")}\n\n${END}`;
    const readme = readFileSync(README, "utf8");
    const at = readme.indexOf(START);
    const end = readme.indexOf(END);
    if (process.env.UPDATE_README === "1" && at !== -1 && end !== -1) {
      writeFileSync(README, `${readme.slice(0, at)}${block}${readme.slice(end + END.length)}`);
      return;
    }
    expect(at).toBeGreaterThan(-1);
    expect(readme.slice(at, end + END.length)).toBe(block);
  });
});
