import { describe, expect, it } from "vitest";
import { replyText } from "../src/index.ts";

const BOT = "100000000000000001";

describe("replyText", () => {
  it.each([
    ["a plain answer", "2", "2"],
    ["surrounding whitespace", "  Production \n", "Production"],
    ["line breaks (Shift+Enter)", "EU (Recommended)\nAsia", "EU (Recommended)\nAsia"],
    ["keyed lines", "1: 2\n2: 3", "1: 2\n2: 3"],
    ["blank lines and indentation inside", "first\n\n  second", "first\n\n  second"],
    ["Windows line breaks", "one\r\ntwo", "one\r\ntwo"],
    ["a leading mention of the bot", `<@${BOT}> US, EU`, "US, EU"],
    ["a leading nickname mention of the bot", `<@!${BOT}>\n1: 2\n2: 3`, "1: 2\n2: 3"],
    ["a trailing mention of the bot", `Production <@${BOT}>`, "Production"],
    ["mentions at both ends", `<@${BOT}> Staging <@!${BOT}>`, "Staging"],
    ["the bot mentioned twice at the start", `<@${BOT}> <@${BOT}> 3`, "3"],
    ["a mention of the bot inside the text", `ask <@${BOT}> later`, `ask <@${BOT}> later`],
    [
      "a mention of someone else at the start",
      "<@200000000000000002> Production",
      "<@200000000000000002> Production",
    ],
    ["a role mention", "<@&300000000000000003> 1", "<@&300000000000000003> 1"],
    ["a channel link", "<#100000000000000101>", "<#100000000000000101>"],
    ["only the mention", `<@${BOT}>`, ""],
    ["a longer id that starts like the bot's", `<@${BOT}9> 2`, `<@${BOT}9> 2`],
  ])("%s", (_, content, expected) => {
    expect(replyText(content, BOT)).toBe(expected);
  });

  it("removes nothing but whitespace before the bot's id is known", () => {
    expect(replyText(` <@${BOT}> 2\n3 `, "")).toBe(`<@${BOT}> 2\n3`);
  });
});
