import { describe, expect, it } from "vitest";
import { ADA, ask, BOB, DEPLOY, GROUP, MODES, type Running, start } from "./harness.ts";

const GRACE = { id: 44, first_name: "Grace", last_name: "Hopper", language_code: "en" };

/** Bob taps an option of a question for `creatorId` in the group; returns the alert he gets. */
async function bobsAlert(running: Running, creatorId: number): Promise<string | undefined> {
  const { message } = await ask(running, DEPLOY, String(GROUP), { creator: { userId: String(creatorId) } });
  const bob = running.tg.user(BOB);
  const answer = await bob.waitForAnswer(bob.press(GROUP, message.message_id, "Production"));
  expect(answer.show_alert).toBe(true);
  return answer.text;
}

describe.each(MODES)("the creator's name in refusals (%s)", (mode) => {
  it("names a creator given by id alone the way Telegram shows them, never by the number", async () => {
    const running = await start(mode);
    running.tg.user(ADA);
    running.tg.user(GRACE);
    expect(await bobsAlert(running, ADA.id)).toBe("This question is for @ada.");
    expect(await bobsAlert(running, GRACE.id)).toBe("This question is for Grace Hopper.");
  });

  it("asks the group for the member when the user's own chat is unknown to the bot", async () => {
    const running = await start(mode);
    running.tg.user(GRACE);
    running.tg.failNext("getChat", { status: 400, description: "Bad Request: chat not found" });
    expect(await bobsAlert(running, GRACE.id)).toBe("This question is for Grace Hopper.");
  });

  it("creates the question when the name look-up cannot reach Telegram, and core logs why", async () => {
    const running = await start(mode);
    running.tg.user(GRACE);
    const held = running.tg.hold("getChat");
    void running.tg.waitUntil(() => held.calls.length === 1).then(() => held.drop());
    expect(await bobsAlert(running, GRACE.id)).toBe("This question is for someone else.");
    expect(running.logger.lines).toEqual([
      expect.stringMatching(
        /^warn could not look up a name .*ChannelError: Could not reach Telegram for getChat: Network request for 'getChat' failed!/,
      ),
    ]);
  });

  it("says 'someone else' for a user Telegram does not know, rather than their id", async () => {
    const running = await start(mode);
    const alert = await bobsAlert(running, 987654321);
    expect(alert).toBe("This question is for someone else.");
    expect(alert).not.toContain("987654321");
  });
});
