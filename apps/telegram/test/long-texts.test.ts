/**
 * Long texts within Telegram's 4096 characters, shortened by core's one ladder (SPEC §6: shorten what
 * is long, never what was asked or who answered): a long Other… answer in the summary, long descriptions
 * in a prompt.
 */
import { describe, expect, it } from "vitest";
import {
  ADA,
  ask,
  botMessages,
  buttons,
  edited,
  ROLLOUT,
  result,
  start,
  tapAndSee,
  visible,
} from "./harness.ts";

const label = (n: number) => `Option ${n} ${"long-label-".repeat(6)}`.slice(0, 64);

describe("long texts", () => {
  it("keeps every question and the attribution when a long Other… answer to question 2 of 3 is summarised", async () => {
    const running = await start("polling");
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, ROLLOUT, String(ADA.id));
    const tap = (text: string) => tapAndSee(running, ada, chatId, message.message_id, text);
    await tap("Production");
    await tap("Next ›");
    await tap("Other…");
    const prompt = await running.tg.waitUntil(() =>
      botMessages(running.tg, chatId).find((m) => m.reply_to_message_id === message.message_id),
    );
    const own = "word ".repeat(590).trim(); // 2,949 characters
    ada.sendText(chatId, own, { replyTo: prompt.message_id });
    await running.tg.waitUntil(() =>
      running.tg.messageText(chatId, message.message_id).includes("✓ 2) Regions"),
    );
    await running.broker.idle();
    await tap("Next ›");
    await tap("Tonight (Recommended)");
    await tap("Send");
    expect(await result(running, record.id)).toEqual({
      status: "answered",
      answers: { answers: { env: ["Production"], regions: [own], window: ["Tonight (Recommended)"] } },
    });
    const summary = visible((await edited(running, chatId, message.message_id)).text) ?? "";
    expect(summary).toMatch(/^✅ Env: Production · Regions: word word .*…/);
    expect(summary).toMatch(/ · Window: Tonight \(Recommended\) — @ada$/);
    expect(summary.length).toBeLessThanOrEqual(4096);
  });

  it("fits a prompt with long descriptions into one message with every option label and its buttons", async () => {
    const running = await start("polling");
    const input = {
      questions: [
        {
          id: "pick",
          header: "Pick",
          question: `${"🚀".repeat(990)} which?`,
          options: [1, 2, 3, 4].map((n) => ({ label: label(n), description: "🛰".repeat(500) })),
        },
      ],
    };
    const { record, message } = await ask(running, input, String(ADA.id));
    expect(record.status).toBe("pending");
    expect(message.text.length).toBeLessThanOrEqual(4096);
    for (const n of [1, 2, 3, 4]) expect(message.text).toContain(`${n}. ${label(n)}`);
    expect(message.text).toMatch(/Expires at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\.$/);
    expect(buttons(message)).toEqual([[label(1)], [label(2)], [label(3)], [label(4)], ["Other…"], ["Skip"]]);
  });
});
