import { describe, expect, it } from "vitest";
import { messagesFor } from "../src/prompt/i18n.ts";

describe("mentionToAnswer", () => {
  it("asks, in each language, for a mention of the bot or a reply, the mention kept as given", () => {
    expect(messagesFor("en").mentionToAnswer("<@42>")).toBe(
      "This bot cannot read ordinary messages here: mention <@42> in your answer, or reply to this message.",
    );
    expect(messagesFor("de-AT").mentionToAnswer("<@42>")).toBe(
      "Dieser Bot kann hier keine gewöhnlichen Nachrichten lesen: erwähne <@42> in deiner Antwort oder antworte direkt auf diese Nachricht.",
    );
  });
});
