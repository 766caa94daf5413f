/**
 * A form within Telegram's limits (shared/PLATFORMS.md), against the fake that enforces them:
 * `callback_data` ≤ 64 bytes, message text ≤ 4096 characters, `answerCallbackQuery` text ≤ 200; long
 * labels cut with "…" on their buttons (the text above keeps them whole); a question with more options
 * than the buttons can carry goes as readable text.
 */
import { sampleRecord } from "@ask-user/core/testing";
import { describe, expect, it } from "vitest";
import { ADA, ask, buttons, start, tapAndSee } from "./harness.ts";

const label = (n: number) => `Region ${n} ${"long-name-".repeat(6)}`.slice(0, 64); // 64 characters each
const LONG = {
  questions: [
    {
      id: "regions",
      header: "Regions",
      question: "Which regions?",
      multiSelect: true,
      options: [1, 2, 3, 4].map((n) => ({ label: label(n) })),
    },
  ],
};

describe("a form within Telegram's limits", () => {
  it("cuts a picked 64-character label to 64 with '…', keeps the text whole, and every callback_data fits", async () => {
    const running = await start("polling");
    const ada = running.tg.user(ADA);
    const { message, chatId } = await ask(running, LONG, String(ADA.id));
    expect(buttons(running.tg.message(chatId, message.message_id)).slice(0, 4)).toEqual(
      [1, 2, 3, 4].map((n) => [label(n)]),
    );

    await tapAndSee(running, ada, chatId, message.message_id, label(1));
    const [picked] = buttons(running.tg.message(chatId, message.message_id))[0] ?? [];
    expect(picked).toBe(`✓ ${label(1).slice(0, 61)}…`);
    expect(picked?.length).toBe(64);
    expect(running.tg.message(chatId, message.message_id)?.text).toContain(`1. ${label(1)}\n`);

    const sent = running.tg.calls.filter((c) => c.method === "sendMessage" || c.method === "editMessageText");
    const data = sent.flatMap((call) => {
      const markup = call.params.reply_markup as { inline_keyboard: Array<Array<{ callback_data: string }>> };
      return markup.inline_keyboard.flat().map((b) => b.callback_data);
    });
    expect(data.length).toBeGreaterThan(10);
    for (const item of data) expect(Buffer.byteLength(item)).toBeLessThanOrEqual(64);
    expect(sent.map((call) => call.error)).toEqual(sent.map(() => undefined));
  });

  it("cuts the toast of a long selection to 200 characters", async () => {
    const running = await start("polling");
    const ada = running.tg.user(ADA);
    const { message, chatId } = await ask(running, LONG, String(ADA.id));
    for (const n of [1, 2, 3]) await tapAndSee(running, ada, chatId, message.message_id, label(n));
    const { toast } = await tapAndSee(running, ada, chatId, message.message_id, label(4));
    expect(toast?.length).toBe(200);
    expect(toast).toMatch(/^Selected: Region 1 long-name-.*…$/);
    const answers = running.tg.calls.filter((call) => call.method === "answerCallbackQuery");
    expect(answers.map((call) => call.error)).toEqual([undefined, undefined, undefined, undefined]);
    // The message still lists every value of the draft in its "Selected:" line, cut within the limit.
    expect(running.tg.message(chatId, message.message_id)?.text).toMatch(/\n\nSelected: .*…\n\n/);
  });

  it("keeps a form with long descriptions and questions within 4096 characters, deadline included", async () => {
    const running = await start("polling");
    // The longest the schema allows, in emoji (two UTF-16 units each): 1000 + 4 × 500 characters.
    const input = {
      questions: [0, 1].map((q) => ({
        id: `q${q}`,
        header: `Header ${q}`,
        question: `${"🚀".repeat(990)} end${q}?`,
        multiSelect: true,
        options: [0, 1, 2, 3].map((o) => ({ label: `Option ${q}.${o}`, description: "🛰".repeat(500) })),
      })),
    };
    const { record, message } = await ask(running, input, String(ADA.id));
    expect(record.status).toBe("pending");
    expect(message.text.length).toBeLessThanOrEqual(4096);
    expect(message.text).toContain("Option 0.3 — 🛰");
    expect(message.text).toContain("🛰…\n");
    expect(message.text).toMatch(/Expires at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\.$/);
    expect(buttons(message).slice(0, 4)).toEqual([
      ["Option 0.0"],
      ["Option 0.1"],
      ["Option 0.2"],
      ["Option 0.3"],
    ]);
  });

  it("sends a question with more options than its buttons can number as readable text, and leaves it alone on refresh", async () => {
    const running = await start("polling");
    const options = Array.from({ length: 11 }, (_, i) => ({ label: `Site ${i + 1}` }));
    const record = sampleRecord({
      prompt: {
        questions: [{ id: "sites", header: "Sites", question: "Which sites?", multiSelect: true, options }],
        timeoutSeconds: 900,
      },
      tokens: ["AAAAAAAAAAAAAAAA"],
      target: { channel: "telegram", conversation: String(ADA.id) },
    });
    const channel = running.telegram;
    const ref = await channel.deliver({
      record,
      locale: "en",
      text: "Sites: Which sites?\n11. Site 11",
      buttons: false,
    });
    const message = running.tg.message(ADA.id, Number(ref.messageId));
    expect(message?.reply_markup).toBeUndefined();
    expect(message?.text).toBe("Sites: Which sites?\n11. Site 11");

    const delivery = {
      channel: "telegram",
      conversation: String(ADA.id),
      messageId: ref.messageId,
      kind: "prompt" as const,
    };
    await channel.refresh?.({ record: { ...record, draft: { sites: ["Site 2"] } }, delivery, locale: "en" });
    expect(running.tg.calls.filter((call) => call.method === "editMessageText")).toEqual([]);
  });
});
