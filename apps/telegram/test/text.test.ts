import { describe, expect, it } from "vitest";
import {
  ADA,
  ask,
  BOB,
  botMessages,
  buttons,
  DEPLOY,
  edited,
  GROUP,
  MODES,
  reacted,
  result,
  start,
  visible,
} from "./harness.ts";

const REGIONS = {
  questions: [
    {
      id: "regions",
      header: "Regions",
      question: "Which regions?",
      multiSelect: true,
      options: [{ label: "EU", description: "Frankfurt" }, { label: "US" }, { label: "Asia" }],
    },
  ],
};

const RELEASE = {
  questions: [
    ...DEPLOY.questions,
    {
      id: "notify",
      header: "Notify",
      question: "Who should I tell?",
      options: [{ label: "Team" }, { label: "Nobody" }],
    },
  ],
};

describe.each(MODES)("text replies (%s)", (mode) => {
  it("reads a reply by number, by label and as free text, and confirms each with a reaction", async () => {
    const running = await start(mode);
    const ada = running.tg.user(ADA);
    const cases: Array<[string, string]> = [
      ["2", "Production"],
      ["  canary ", "Canary"],
      ["Friday after lunch", "Friday after lunch"],
    ];
    for (const [reply, answer] of cases) {
      const { record, message, chatId } = await ask(running, DEPLOY, String(ADA.id));
      const sent = ada.sendText(chatId, reply);
      expect(await result(running, record.id)).toEqual({
        status: "answered",
        answers: { answers: { deploy_target: [answer] } },
      });
      // The summary edit says how the reply was read; a 👍 on the reply says it was taken.
      expect(await reacted(running.tg, chatId, sent.message_id)).toEqual(["👍"]);
      const summary = await edited(running, chatId, message.message_id);
      expect(visible(summary.text)).toBe(`✅ Deploy: ${answer} — @ada`);
      expect(botMessages(running.tg, chatId, message.message_id)).toEqual([]);
    }
  });

  it("refuses a number out of range with a hint and keeps the question open", async () => {
    const running = await start(mode);
    const ada = running.tg.user(ADA);
    const { record, chatId } = await ask(running, DEPLOY, String(ADA.id));
    const sent = ada.sendText(chatId, "7");
    const hint = await running.tg.waitUntil(() =>
      botMessages(running.tg, chatId).find((m) => m.reply_to_message_id === sent.message_id),
    );
    expect(hint.text).toMatch(/^There is no option 7: choose a number from 1 to 3/);
    expect((await running.broker.get(record.id))?.status).toBe("pending");
    ada.sendText(chatId, "/skip@ask_user_test_bot");
    expect(await result(running, record.id)).toEqual({ status: "no_answer", reason: "skipped" });
  });

  it("asks a multi-select question as a form that still takes several numbers typed as a reply", async () => {
    const running = await start(mode);
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, REGIONS, String(ADA.id));
    expect(buttons(message)).toEqual([["EU"], ["US"], ["Asia"], ["Other…"], ["Skip", "Send"]]);
    expect(message.text).toContain("Regions\nWhich regions?\n\n1. EU — Frankfurt\n2. US\n3. Asia");
    expect(message.text).toMatch(/separated by commas/);
    expect(message.text).toMatch(/Expires at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\.$/);

    ada.sendText(chatId, "1, 3");
    expect(await result(running, record.id)).toEqual({
      status: "answered",
      answers: { answers: { regions: ["EU", "Asia"] } },
    });
    expect(visible((await edited(running, chatId, message.message_id)).text)).toBe(
      "✅ Regions: EU, Asia — @ada",
    );
  });

  it("steps through several questions: a partial reply is kept and the rest is asked for", async () => {
    const running = await start(mode);
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, RELEASE, String(GROUP), {
      creator: { userId: String(ADA.id), displayName: "@ada" },
    });
    expect(message.text).toContain("Question 1 of 2\nDeploy\nWhere should I deploy?");
    expect(message.text).toContain("○ 1) Deploy\n○ 2) Notify");

    const first = ada.sendText(chatId, "1: Production", { replyTo: message.message_id });
    const followUp = await running.tg.waitUntil(() =>
      botMessages(running.tg, chatId).find((m) => m.reply_to_message_id === first.message_id),
    );
    expect(followUp.text).toMatch(
      /^Recorded: Deploy: Production\.\nStill needed:\n2\) Notify: Who should I tell\?/,
    );
    expect((await running.broker.get(record.id))?.status).toBe("pending");
    // The form shows the shared draft (✓ and the answer typed) and moves on to the question still open.
    const form = await running.tg.waitUntil(() => {
      const now = running.tg.message(chatId, message.message_id);
      return now?.text.includes("✓ 1) Deploy: Production\n○ 2) Notify") && now;
    });
    expect(form.text).toContain("Question 2 of 2\nNotify\nWho should I tell?");
    expect(buttons(form)).toEqual([["Team"], ["Nobody"], ["Other…"], ["‹ Back"], ["Skip", "Send"]]);

    const last = ada.sendText(chatId, "Team", { replyTo: followUp.message_id });
    expect(await result(running, record.id)).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"], notify: ["Team"] } },
    });
    expect(visible((await edited(running, chatId, message.message_id)).text)).toBe(
      "✅ Deploy: Production · Notify: Team — @ada",
    );
    expect(await reacted(running.tg, chatId, last.message_id)).toEqual(["👍"]);
  });

  it("refuses another member's reply to the question in a group and leaves it open", async () => {
    const running = await start(mode);
    const bob = running.tg.user(BOB);
    const { record, message, chatId } = await ask(running, DEPLOY, String(GROUP), {
      creator: { userId: String(ADA.id), displayName: "@ada" },
    });
    const sent = bob.sendText(chatId, "2", { replyTo: message.message_id });
    const refusal = await running.tg.waitUntil(() =>
      botMessages(running.tg, chatId).find((m) => m.reply_to_message_id === sent.message_id),
    );
    expect(visible(refusal.text)).toBe("This question is for @ada.");
    expect(refusal.entities.filter((e) => e.type === "mention")).toEqual([]);
    expect(running.tg.message(chatId, message.message_id)?.edit_date).toBeUndefined();
    expect((await running.broker.get(record.id))?.status).toBe("pending");
  });

  it("routes replies in a forum topic to the question asked there, and answers in that topic", async () => {
    const running = await start(mode, {
      after: (bot) =>
        bot.on("message:text", (ctx) =>
          ctx.reply("host", { message_thread_id: ctx.message.message_thread_id ?? 0 }),
        ),
    });
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, DEPLOY, `${GROUP}:7`, {
      creator: { userId: String(ADA.id), displayName: "@ada" },
    });
    expect(message.message_thread_id).toBe(7);

    // Privacy mode: in a group the bot gets mentions of it and replies to its messages only.
    const elsewhere = ada.sendText(chatId, "@ask_user_test_bot 2", { threadId: 8 });
    const host = await running.tg.waitUntil(() =>
      botMessages(running.tg, chatId).find((m) => m.message_id > elsewhere.message_id),
    );
    expect([host.text, host.message_thread_id]).toEqual(["host", 8]);
    expect((await running.broker.get(record.id))?.status).toBe("pending");

    const sent = ada.sendText(chatId, "2", { threadId: 7, replyTo: message.message_id });
    expect(await result(running, record.id)).toMatchObject({
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(await reacted(running.tg, chatId, sent.message_id)).toEqual(["👍"]);

    const other = await ask(running, DEPLOY, `${GROUP}:7`, { creator: { userId: String(ADA.id) } });
    const query = ada.press(chatId, other.message.message_id, "Other…");
    await ada.waitForAnswer(query);
    const forceReply = await running.tg.waitUntil(() =>
      botMessages(running.tg, chatId).find((m) => m.reply_to_message_id === other.message.message_id),
    );
    expect(forceReply.message_thread_id).toBe(7);
  });
});
