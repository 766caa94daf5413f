import type { MessageEntity } from "grammy/types";
import { describe, expect, it } from "vitest";
import { replyText } from "../src/reply-text.ts";

const BOT = "my_bot";

/** A message as Telegram sends it: `mention` and `bot_command` entities over the plain text. */
function message(text: string): { text: string; entities: MessageEntity[] } {
  const entities: MessageEntity[] = [];
  for (const match of text.matchAll(/(?<![\w@])@[A-Za-z]\w{4,31}(?!\w)/g)) {
    entities.push({ type: "mention", offset: match.index ?? 0, length: match[0].length });
  }
  for (const match of text.matchAll(/(?<!\S)\/\w+(?:@\w+)?/g)) {
    entities.push({ type: "bot_command", offset: match.index ?? 0, length: match[0].length });
  }
  return { text, entities };
}

describe("replyText", () => {
  it.each<[string, string | undefined]>([
    ["2", "2"],
    ["  Friday after lunch ", "  Friday after lunch "],
    ["1: Production\n2: Team", "1: Production\n2: Team"],
    ["1: 2; 2: EU, Asia", "1: 2; 2: EU, Asia"],
    ["@my_bot 2", "2"],
    ["@My_Bot, 2", "2"],
    ["@my_bot: Canary", "Canary"],
    ["2 @my_bot", "2"],
    ["@my_bot\n1: Production\n2: Team", "1: Production\n2: Team"],
    ["@my_bot 1: 2\n2: EU @my_bot", "1: 2\n2: EU"],
    ["ask @my_bot about it", "ask @my_bot about it"],
    ["@other_bot 2", "@other_bot 2"],
    ["@my_bot", undefined],
    ["/skip", "/skip"],
    ["/skip@my_bot", "/skip"],
    ["/skip@MY_BOT please", "/skip please"],
    ["@my_bot /skip", "/skip"],
    ["/skip@other_bot", undefined],
    ["/start", undefined],
    ["/start@my_bot", undefined],
    ["2 /start", "2 /start"],
  ])("%j → %j", (text, expected) => {
    expect(replyText(message(text), BOT)).toBe(expected);
  });

  it("goes by the entities: an @my_bot that Telegram did not mark as a mention stays", () => {
    expect(replyText({ text: "@my_bot 2" }, BOT)).toBe("@my_bot 2");
    expect(replyText({ text: "/skip" }, BOT)).toBe("/skip");
  });

  it("has nothing to say about a message without text", () => {
    expect(replyText({}, BOT)).toBeUndefined();
  });
});
