/**
 * Whom a prompt is for, and how quietly a text reply is confirmed (issue #15): "For @ada" on every kind
 * of prompt in a shared chat; a complete answer or a skip typed as a reply gets a reaction (the summary
 * edit already says what was recorded), or a reply where the chat does not allow that reaction.
 */
import { sampleRecord } from "@ask-user/core/testing";
import { describe, expect, it } from "vitest";
import {
  ADA,
  ask,
  botMessages,
  DEPLOY,
  edited,
  GROUP,
  MODES,
  reacted,
  result,
  start,
  visible,
} from "./harness.ts";

const creator = { userId: String(ADA.id), displayName: "@ada" };

describe.each(MODES)("whom a prompt is for, and quiet confirmations (%s)", (mode) => {
  it("says 'For @ada' on a prompt with buttons in a group, and nothing of the kind in her private chat", async () => {
    const running = await start(mode);
    const inGroup = await ask(running, DEPLOY, String(GROUP), { creator });
    expect(visible(inGroup.message.text)).toMatch(/^For @ada\n\nDeploy\nWhere should I deploy\?\n/);
    expect(inGroup.message.entities.filter((e) => e.type === "mention")).toEqual([]);
    const inPrivate = await ask(running, DEPLOY, String(ADA.id), { creator });
    expect(inPrivate.message.text).toMatch(/^Deploy\n/);
  });

  it("keeps 'For @ada' when the readable text is written again with the group's reply hint", async () => {
    const running = await start(mode);
    const record = sampleRecord({ target: { channel: "telegram", conversation: String(GROUP) } });
    const ref = await running.telegram.deliver({
      record,
      locale: "en",
      text: "For @ada\n\nDeploy: Where should I deploy?",
      buttons: false,
      forName: "@ada",
    });
    const text = visible(running.tg.message(GROUP, Number(ref.messageId))?.text) ?? "";
    expect(text).toMatch(/^For @ada\n\nDeploy: Where should I deploy\?\n/);
    expect(text).toContain("\nReply to this message to answer.\n");
  });

  it("confirms a skip typed as a reply with 👌, and the summary says who skipped", async () => {
    const running = await start(mode);
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, DEPLOY, String(ADA.id));
    const sent = ada.sendText(chatId, "skip");
    expect(await result(running, record.id)).toEqual({ status: "no_answer", reason: "skipped" });
    expect(await reacted(running.tg, chatId, sent.message_id)).toEqual(["👌"]);
    expect(visible((await edited(running, chatId, message.message_id)).text)).toBe(
      "⏭ Deploy — skipped by @ada",
    );
    expect(botMessages(running.tg, chatId, message.message_id)).toEqual([]);
  });

  it("replies 'Recorded: …' instead where the group's admins do not allow the reaction", async () => {
    const running = await start(mode);
    running.tg.setAvailableReactions(GROUP, ["🔥"]);
    const ada = running.tg.user(ADA);
    const { record, message } = await ask(running, DEPLOY, String(GROUP), { creator });
    const sent = ada.sendText(GROUP, "2", { replyTo: message.message_id });
    expect(await result(running, record.id)).toMatchObject({ status: "answered" });
    const confirmation = await running.tg.waitUntil(() =>
      botMessages(running.tg, GROUP).find((m) => m.reply_to_message_id === sent.message_id),
    );
    expect(confirmation.text).toBe("Recorded: Production");
    expect(running.tg.message(GROUP, sent.message_id)?.reactions).toBeUndefined();
    const refused = running.tg.calls.filter((call) => call.method === "setMessageReaction");
    expect(refused.map((call) => call.error?.description)).toEqual(["Bad Request: REACTION_INVALID"]);
    expect(running.logger.lines).toContainEqual(
      expect.stringContaining("could not react to confirm a reply"),
    );
  });
});
