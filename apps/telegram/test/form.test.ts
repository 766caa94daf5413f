/**
 * Forms (issue #15): several questions, or a multi-select one, shown one question at a time with a
 * button per option (✓ on picked ones), Other…, ‹ Back / Next ›, Skip and Send — answered by taps alone
 * through the real grammY against the fake Bot API, with the shared draft kept in the store.
 */
import { describe, expect, it } from "vitest";
import {
  ADA,
  ask,
  BOB,
  botMessages,
  buttons,
  edited,
  GROUP,
  MODES,
  ROLLOUT,
  result,
  start,
  tapAndSee,
  visible,
} from "./harness.ts";

const creator = { userId: String(ADA.id), displayName: "@ada" };

describe.each(MODES)("a form (%s)", (mode) => {
  it("answers a three-question prompt with a multi-select by taps alone", async () => {
    const running = await start(mode);
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, ROLLOUT, String(ADA.id));
    const see = () => running.tg.messageText(chatId, message.message_id);
    const tap = (label: string) => tapAndSee(running, ada, chatId, message.message_id, label);

    expect(see()).toContain("Question 1 of 3\nEnv\nWhich environment gets the release?\n\n");
    expect(see()).toContain("1. Staging (Recommended) — Safe first step\n2. Production — Goes live at once");
    expect(see()).toContain("○ 1) Env\n○ 2) Regions\n○ 3) Window");
    expect(buttons(running.tg.message(chatId, message.message_id))).toEqual([
      ["Staging (Recommended)"],
      ["Production"],
      ["Other…"],
      ["Next ›"],
      ["Skip", "Send"],
    ]);

    expect(await tap("Production")).toEqual({ toast: "Selected: Production", alert: false });
    expect(see()).toContain("[✓ Production]");
    expect(see()).toContain("✓ 1) Env: Production\n○ 2) Regions");

    expect(await tap("Next ›")).toEqual({ toast: undefined, alert: false });
    expect(see()).toContain("Question 2 of 3\nRegions\nWhich regions?");
    expect(buttons(running.tg.message(chatId, message.message_id)).slice(3)).toEqual([
      ["Other…"],
      ["‹ Back", "Next ›"],
      ["Skip", "Send"],
    ]);
    await tap("Asia");
    await tap("US");
    expect((await tap("EU (Recommended)")).toast).toBe("Selected: EU (Recommended), US, Asia");
    expect((await tap("✓ US")).toast).toBe("Selected: EU (Recommended), Asia"); // toggled off again
    expect(see()).toContain("[✓ EU (Recommended)]\n[US]\n[✓ Asia]");

    await tap("Next ›");
    expect(see()).toContain("Question 3 of 3\nWindow\nWhen?");
    expect(buttons(running.tg.message(chatId, message.message_id)).at(-2)).toEqual(["‹ Back"]);
    await tap("Tonight (Recommended)");
    expect(await tap("Send")).toEqual({
      toast: "Recorded: Env: Production · Regions: EU (Recommended), Asia · Window: Tonight (Recommended)",
      alert: false,
    });

    expect(await result(running, record.id)).toEqual({
      status: "answered",
      answers: {
        answers: {
          env: ["Production"],
          regions: ["EU (Recommended)", "Asia"],
          window: ["Tonight (Recommended)"],
        },
      },
    });
    const summary = await edited(running, chatId, message.message_id);
    expect(visible(summary.text)).toBe(
      "✅ Env: Production · Regions: EU (Recommended), Asia · Window: Tonight (Recommended) — @ada",
    );
    // Every tap was answered exactly once, and the bot said nothing else in the chat.
    const answers = running.tg.calls.filter((call) => call.method === "answerCallbackQuery");
    expect(answers.map((call) => call.error)).toEqual(Array(9).fill(undefined));
    expect(botMessages(running.tg, chatId, message.message_id)).toEqual([]);
  });

  it("Send with questions left open says what is still needed and shows the first of them", async () => {
    const running = await start(mode);
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, ROLLOUT, String(ADA.id));
    const tap = (label: string) => tapAndSee(running, ada, chatId, message.message_id, label);
    await tap("Staging (Recommended)");

    expect(await tap("Send")).toEqual({ toast: "Still needed: Regions, Window.", alert: true });
    expect(running.tg.messageText(chatId, message.message_id)).toContain("Question 2 of 3\nRegions");
    expect((await running.broker.get(record.id))?.status).toBe("pending");

    expect((await tap("‹ Back")).toast).toBeUndefined();
    expect(running.tg.messageText(chatId, message.message_id)).toContain("[✓ Staging (Recommended)]");
    expect((await tap("✓ Staging (Recommended)")).toast).toBe("Nothing selected."); // a second tap unpicks
    expect(running.tg.messageText(chatId, message.message_id)).toContain("○ 1) Env\n");
  });

  it("Other… asks for the answer as a reply; it joins the draft and the form shows it", async () => {
    const running = await start(mode);
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, ROLLOUT, String(GROUP), { creator });
    const tap = (label: string) => tapAndSee(running, ada, chatId, message.message_id, label);
    await tap("Next ›");
    await tap("Next ›");

    expect((await tap("Other…")).toast).toBe("Type your answer as a reply.");
    const prompt = await running.tg.waitUntil(() =>
      botMessages(running.tg, chatId).find((m) => m.reply_to_message_id === message.message_id),
    );
    expect(prompt.reply_markup).toMatchObject({ force_reply: true, selective: true });
    const reply = ada.sendText(chatId, "Friday 6 pm", { replyTo: prompt.message_id });
    const noted = await running.tg.waitUntil(() =>
      botMessages(running.tg, chatId).find((m) => m.reply_to_message_id === reply.message_id),
    );
    expect(noted.text).toBe("Selected: Friday 6 pm");
    const form = await running.tg.waitUntil(() => {
      const text = running.tg.messageText(chatId, message.message_id);
      return text.includes("✓ 3) Window: Friday 6 pm") && text;
    });
    expect(form).toContain("Question 3 of 3\nWindow");
    expect(form).toContain("[✓ Other…]");
    expect((await running.broker.get(record.id))?.draft).toEqual({ window: ["Friday 6 pm"] });
  });

  it("Skip declines the whole prompt and the summary keeps what was asked", async () => {
    const running = await start(mode);
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, ROLLOUT, String(ADA.id));
    await tapAndSee(running, ada, chatId, message.message_id, "Production");
    expect((await tapAndSee(running, ada, chatId, message.message_id, "Skip")).toast).toBe("Skipped.");
    expect(await result(running, record.id)).toEqual({ status: "no_answer", reason: "skipped" });
    expect(visible((await edited(running, chatId, message.message_id)).text)).toBe(
      "⏭ Env · Regions · Window — skipped by @ada",
    );
  });

  it("refuses another member's taps in a group, Back and Next included, and the form stays as it was", async () => {
    const running = await start(mode);
    const bob = running.tg.user(BOB);
    const { message, chatId } = await ask(running, ROLLOUT, String(GROUP), { creator });
    const before = running.tg.messageText(chatId, message.message_id);
    expect(before.startsWith("For @ada\n\nQuestion 1 of 3\n")).toBe(true);
    for (const label of ["Production", "Next ›", "Send"]) {
      expect(await tapAndSee(running, bob, chatId, message.message_id, label)).toEqual({
        toast: "This question is for @ada.",
        alert: true,
      });
    }
    expect(running.tg.messageText(chatId, message.message_id)).toBe(before);
    expect(running.tg.message(chatId, message.message_id)?.edit_date).toBeUndefined();
  });
});
