import { describe, expect, it } from "vitest";
import {
  ADA,
  ask,
  botMessages,
  DEPLOY,
  edited,
  GROUP,
  MODES,
  type Running,
  reacted,
  result,
  start,
  visible,
} from "./harness.ts";

/** Taps Other… on a question message and returns the force-reply prompt the bot sent for it. */
async function tapOther(running: Running, chatId: number, messageId: number) {
  const ada = running.tg.user(ADA);
  await ada.waitForAnswer(ada.press(chatId, messageId, "Other…"));
  return running.tg.waitUntil(() =>
    botMessages(running.tg, chatId).find((m) => m.reply_to_message_id === messageId),
  );
}

/** The bot's answer to one of the person's messages. */
function answerTo(running: Running, chatId: number, messageId: number) {
  return running.tg.waitUntil(() =>
    botMessages(running.tg, chatId).find((m) => m.reply_to_message_id === messageId),
  );
}

describe.each(MODES)("a reply to the Other… prompt (%s)", (mode) => {
  it("answers the question whose Other… was tapped, even with another one pending in the chat", async () => {
    const running = await start(mode);
    const creator = { userId: String(ADA.id), displayName: "@ada" };
    const first = await ask(running, DEPLOY, String(GROUP), { creator });
    const second = await ask(running, DEPLOY, String(GROUP), { creator });
    const prompt = await tapOther(running, GROUP, first.message.message_id);

    const reply = running.tg
      .user(ADA)
      .sendText(GROUP, "Blue-green on Friday", { replyTo: prompt.message_id });

    expect(await result(running, first.record.id)).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Blue-green on Friday"] } },
    });
    expect(await reacted(running.tg, GROUP, reply.message_id)).toEqual(["👍"]);
    expect(visible((await edited(running, GROUP, first.message.message_id)).text)).toBe(
      "✅ Deploy: Blue-green on Friday — @ada",
    );
    expect(botMessages(running.tg, GROUP).map((m) => m.text)).not.toContainEqual(
      expect.stringContaining("Several questions are waiting"),
    );
    expect((await running.broker.get(second.record.id))?.status).toBe("pending");
  });

  it("tells the person the question was cancelled, and leaves the question asked since untouched", async () => {
    const running = await start(mode);
    const first = await ask(running, DEPLOY, String(ADA.id));
    const prompt = await tapOther(running, ADA.id, first.message.message_id);
    await running.broker.cancel(first.record.id);
    await edited(running, ADA.id, first.message.message_id);
    const second = await ask(running, DEPLOY, String(ADA.id));

    const reply = running.tg.user(ADA).sendText(ADA.id, "Blue-green on Friday", {
      replyTo: prompt.message_id,
    });

    expect((await answerTo(running, ADA.id, reply.message_id)).text).toBe("This question was cancelled.");
    const untouched = await running.broker.get(second.record.id);
    expect(untouched?.status).toBe("pending");
    expect(untouched?.draft).toBeUndefined();
    expect(running.tg.message(ADA.id, second.message.message_id)?.edit_date).toBeUndefined();
    expect(await result(running, first.record.id)).toEqual({ status: "no_answer", reason: "cancelled" });
  });
});
