import { describe, expect, it } from "vitest";
import {
  ADA,
  ask,
  BOB,
  botMessages,
  DEPLOY,
  edited,
  GROUP,
  handleTogether,
  MODES,
  reacted,
  result,
  start,
  visible,
} from "./harness.ts";

const NOTIFY = {
  id: "notify",
  header: "Notify",
  question: "Who should I tell?",
  options: [{ label: "Team" }, { label: "Nobody" }],
};
const RELEASE = { questions: [...DEPLOY.questions, NOTIFY] };
const THREE = {
  questions: [
    ...RELEASE.questions,
    { id: "when", header: "When", question: "When?", options: [{ label: "Now" }, { label: "Tonight" }] },
  ],
};
const creator = { userId: String(ADA.id), displayName: "@ada" };

describe.each(MODES)("in a group, where the bot runs in privacy mode (%s)", (mode) => {
  it("the readable-text prompt says to reply to it; in a private chat it does not", async () => {
    const running = await start(mode);
    const inGroup = await ask(running, RELEASE, String(GROUP), { creator });
    expect(inGroup.message.text).toContain("e.g. 1: 1; 2: 1");
    expect(inGroup.message.text).toMatch(
      /\nReply to this message to answer\.\nExpires at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\.$/,
    );

    const inPrivate = await ask(running, RELEASE, String(ADA.id));
    expect(inPrivate.message.text).not.toContain("Reply to this message");
  });

  it("never sees a keyed answer typed without replying; the same line as a reply records both answers", async () => {
    const running = await start(mode);
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, RELEASE, String(GROUP), { creator });

    const typed = ada.sendText(chatId, "1: 2; 2: 1");
    expect(running.tg.withheld.map((m) => m.message_id)).toEqual([typed.message_id]);
    expect(running.tg.pendingUpdates()).toEqual([]);
    expect(botMessages(running.tg, chatId, message.message_id)).toEqual([]);

    const reply = ada.sendText(chatId, "1: 2; 2: 1", { replyTo: message.message_id });
    expect(await result(running, record.id)).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"], notify: ["Team"] } },
    });
    expect(await reacted(running.tg, chatId, reply.message_id)).toEqual(["👍"]);
    expect(visible((await edited(running, chatId, message.message_id)).text)).toBe(
      "✅ Deploy: Production · Notify: Team — @ada",
    );
  });

  it("reads a message that mentions the bot without the mention, and keeps its line breaks", async () => {
    const running = await start(mode);
    const ada = running.tg.user(ADA);
    const single = await ask(running, DEPLOY, String(GROUP), { creator });
    ada.sendText(GROUP, "@ask_user_test_bot 2");
    expect(await result(running, single.record.id)).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(visible((await edited(running, GROUP, single.message.message_id)).text)).toBe(
      "✅ Deploy: Production — @ada",
    );

    const several = await ask(running, RELEASE, String(GROUP), { creator });
    ada.sendText(GROUP, "Canary\nNobody @Ask_User_Test_Bot");
    expect(await result(running, several.record.id)).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Canary"], notify: ["Nobody"] } },
    });
  });
});

describe("two people answering one prompt at the same moment", () => {
  it("keeps both answers in the draft, and the last one completes the prompt with all three", async () => {
    const running = await start("manual", { answerers: "conversation" });
    const ada = running.tg.user(ADA);
    const bob = running.tg.user(BOB);
    const { record, message, chatId } = await ask(running, THREE, String(GROUP));

    ada.sendText(chatId, "1: 1", { replyTo: message.message_id });
    bob.sendText(chatId, "2: 2", { replyTo: message.message_id });
    expect(await handleTogether(running)).toBe(2);

    const stored = await running.broker.get(record.id);
    expect(stored?.status).toBe("pending");
    expect(stored?.draft).toEqual({ deploy_target: ["Staging (Recommended)"], notify: ["Nobody"] });

    ada.sendText(chatId, "3: 1", { replyTo: message.message_id });
    expect(await handleTogether(running)).toBe(1);
    expect(await result(running, record.id)).toEqual({
      status: "answered",
      answers: {
        answers: { deploy_target: ["Staging (Recommended)"], notify: ["Nobody"], when: ["Now"] },
      },
    });
  });
});
