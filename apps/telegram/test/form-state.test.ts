/**
 * A form's state: the draft lives in the store (a restart keeps it; the question shown does not, and
 * falls back to the first one without an answer), edits never go back to an older draft, and a refresh
 * never shows the form again over its summary.
 */
import { createMemoryStore } from "@ask-user/core";
import { describe, expect, it } from "vitest";
import {
  ADA,
  ask,
  edited,
  fake,
  handleTogether,
  MODES,
  ROLLOUT,
  result,
  start,
  tapAndSee,
  visible,
} from "./harness.ts";

describe.each(MODES)("a form's state (%s)", (mode) => {
  it("keeps a half-filled form across a restart, shows its first open question, and finishes by taps", async () => {
    const tg = await fake();
    const store = createMemoryStore();
    const first = await start(mode, { tg, store });
    const ada = tg.user(ADA);
    const { record, message, chatId } = await ask(first, ROLLOUT, String(ADA.id));
    await tapAndSee(first, ada, chatId, message.message_id, "Production");
    await tapAndSee(first, ada, chatId, message.message_id, "Next ›");
    expect(tg.messageText(chatId, message.message_id)).toContain("Question 2 of 3\nRegions");
    await first.stop();

    const second = await start(mode, { tg, store });
    // A text reply changes the draft; the new process does not know which question the message showed.
    ada.sendText(chatId, "2: US", { replyTo: message.message_id });
    const form = await tg.waitUntil(() => {
      const text = tg.messageText(chatId, message.message_id);
      return text.includes("✓ 2) Regions: US") && text;
    });
    expect(form).toContain("Question 3 of 3\nWindow");
    expect(form).toContain("✓ 1) Env: Production\n✓ 2) Regions: US\n○ 3) Window");

    await tapAndSee(second, ada, chatId, message.message_id, "Weekend");
    expect((await tapAndSee(second, ada, chatId, message.message_id, "Send")).toast).toBe(
      "Recorded: Env: Production · Regions: US · Window: Weekend",
    );
    expect(await result(second, record.id)).toEqual({
      status: "answered",
      answers: { answers: { env: ["Production"], regions: ["US"], window: ["Weekend"] } },
    });
    expect(visible((await edited(second, chatId, message.message_id)).text)).toBe(
      "✅ Env: Production · Regions: US · Window: Weekend — @ada",
    );
  });

  it("takes 'message is not modified' as shown, and never shows the form again over its summary", async () => {
    const tg = await fake();
    const store = createMemoryStore();
    const first = await start(mode, { tg, store });
    const { record, message, chatId } = await ask(first, ROLLOUT, String(ADA.id));
    await first.stop();

    // A new process does not know what the message shows: its edit changes nothing, and that is fine.
    const second = await start(mode, { tg, store });
    const refresh = second.telegram.refresh;
    const delivery = record.deliveries[0];
    if (!refresh || !delivery) throw new Error("no refresh or no delivery");
    await expect(refresh({ record, delivery, locale: "en" })).resolves.toBeUndefined();
    const edits = tg.calls.filter((call) => call.method === "editMessageText");
    expect(edits.map((call) => call.error?.description)).toEqual([
      expect.stringContaining("message is not modified"),
    ]);

    await second.broker.skip(record.id, { channel: "telegram", userId: String(ADA.id), displayName: "@ada" });
    const summary = visible((await edited(second, chatId, message.message_id)).text);
    // A refresh that comes late (a pick staged just before the skip, still pending) leaves the summary alone.
    const late = { ...record, version: record.version + 1, draft: { env: ["Production"] } };
    await refresh({ record: late, delivery, locale: "en" });
    expect(visible(tg.message(chatId, message.message_id)?.text)).toBe(summary);
    expect(tg.message(chatId, message.message_id)?.reply_markup).toBeUndefined();
  });
});

describe("taps on one form at the same moment", () => {
  it("keep both picks, and the form ends up showing both", async () => {
    const running = await start("manual");
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, ROLLOUT, String(ADA.id));
    ada.press(chatId, message.message_id, "Next ›");
    await handleTogether(running);
    ada.press(chatId, message.message_id, "EU (Recommended)");
    ada.press(chatId, message.message_id, "Asia");
    expect(await handleTogether(running)).toBe(2);
    await running.broker.idle();
    expect((await running.broker.get(record.id))?.draft).toEqual({ regions: ["EU (Recommended)", "Asia"] });
    expect(running.tg.messageText(chatId, message.message_id)).toContain(
      "[✓ EU (Recommended)]\n[US]\n[✓ Asia]",
    );
  });
});
