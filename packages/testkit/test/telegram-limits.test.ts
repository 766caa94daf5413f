import { describe, expect, it } from "vitest";
import { ADA, botFor, fake, refusal } from "./harness.ts";

describe("Bot API limits and semantics the fake enforces", () => {
  it("refuses 65-byte callback_data with BUTTON_DATA_INVALID, counting bytes rather than characters", async () => {
    const tg = await fake();
    const { api } = botFor(tg);
    const keyboard = (data: string) => ({
      reply_markup: { inline_keyboard: [[{ text: "Go", callback_data: data }]] },
    });

    const error = await refusal(api.sendMessage(ADA.id, "Pick", keyboard("x".repeat(65))));
    expect(error.description).toContain("BUTTON_DATA_INVALID");
    await refusal(api.sendMessage(ADA.id, "Pick", keyboard("é".repeat(33))));
    await api.sendMessage(ADA.id, "Pick", keyboard("é".repeat(32)));

    expect(tg.messages(ADA.id)).toHaveLength(1);
  });

  it("refuses text over 4096 characters or empty after parsing, and counts text without HTML tags", async () => {
    const tg = await fake();
    const { api } = botFor(tg);

    expect((await refusal(api.sendMessage(ADA.id, "a".repeat(4097)))).description).toBe(
      "Bad Request: message is too long",
    );
    expect((await refusal(api.sendMessage(ADA.id, "<b> </b>", { parse_mode: "HTML" }))).description).toBe(
      "Bad Request: message text is empty",
    );
    await api.sendMessage(ADA.id, "a".repeat(4096));
    await api.sendMessage(ADA.id, `<b>${"a".repeat(4096)}</b>`, { parse_mode: "HTML" });

    expect(tg.messages(ADA.id).map((m) => m.text.length)).toEqual([4096, 4096]);
  });

  it("refuses malformed HTML and unescaped MarkdownV2, and stores well-formed text as the user sees it", async () => {
    const tg = await fake();
    const { api } = botFor(tg);

    const unclosed = await refusal(api.sendMessage(ADA.id, "<b>bold", { parse_mode: "HTML" }));
    expect(unclosed.description).toBe(
      `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "b"`,
    );
    const unknown = await refusal(api.sendMessage(ADA.id, "<p>para</p>", { parse_mode: "HTML" }));
    expect(unknown.description).toBe(
      `Bad Request: can't parse entities: Unsupported start tag "p" at byte offset 0`,
    );
    const markdown = await refusal(api.sendMessage(ADA.id, "v1.2 is out", { parse_mode: "MarkdownV2" }));
    expect(markdown.description).toContain("Character '.' is reserved");

    const sent = await api.sendMessage(
      ADA.id,
      '<b>Deploy</b> to <i>prod</i> &amp; tell <a href="https://x.dev">us</a>',
      {
        parse_mode: "HTML",
      },
    );
    expect(sent.text).toBe("Deploy to prod & tell us");
    expect(sent.entities?.map((e) => e.type)).toEqual(["bold", "italic", "text_link"]);
    expect(tg.messages(ADA.id)).toMatchObject([{ text: "Deploy to prod & tell us", parse_mode: "HTML" }]);
  });

  it("drops the inline keyboard when editMessageText omits reply_markup", async () => {
    const tg = await fake();
    const { api } = botFor(tg);
    const sent = await api.sendMessage(ADA.id, "Approve?", {
      reply_markup: { inline_keyboard: [[{ text: "OK", callback_data: "ok" }]] },
    });

    const edited = await api.editMessageText(ADA.id, sent.message_id, "Approved");

    expect(edited).toMatchObject({ text: "Approved" });
    expect(tg.message(ADA.id, sent.message_id)?.reply_markup).toBeUndefined();
    expect(() => tg.user(ADA).tap(ADA.id, sent.message_id, "ok")).toThrow(/no button/);
  });

  it("refuses an edit that changes nothing with 'message is not modified', and an unknown message", async () => {
    const tg = await fake();
    const { api } = botFor(tg);
    const markup = { inline_keyboard: [[{ text: "OK", callback_data: "ok" }]] };
    const sent = await api.sendMessage(ADA.id, "Same", { reply_markup: markup });

    const error = await refusal(
      api.editMessageText(ADA.id, sent.message_id, "Same", { reply_markup: markup }),
    );
    expect(error.description).toMatch(/^Bad Request: message is not modified: specified new message content/);
    const missing = await refusal(api.editMessageText(ADA.id, 999, "Other"));
    expect(missing.description).toBe("Bad Request: message to edit not found");
    expect(tg.message(ADA.id, sent.message_id)?.edit_date).toBeUndefined();
  });

  it("surfaces failNext 429 as a GrammyError with retry_after, then answers normally", async () => {
    const tg = await fake();
    const { api } = botFor(tg);
    tg.failNext("sendMessage", { status: 429, retry_after: 7 });

    const error = await refusal(api.sendMessage(ADA.id, "hi"));
    expect(error.error_code).toBe(429);
    expect(error.parameters.retry_after).toBe(7);
    expect(error.description).toBe("Too Many Requests: retry after 7");
    tg.failNext("sendMessage", { status: 502 });
    expect((await refusal(api.sendMessage(ADA.id, "hi"))).description).toBe("Bad Gateway");
    await api.sendMessage(ADA.id, "hi");
    expect(tg.messages(ADA.id).map((m) => m.text)).toEqual(["hi"]);
  });

  it("refuses answers to unknown or already answered callback queries, and answer text over 200", async () => {
    const tg = await fake();
    const { api } = botFor(tg);
    const expired = "Bad Request: query is too old and response timeout expired or query ID is invalid";

    expect((await refusal(api.answerCallbackQuery("no-such-query"))).description).toBe(expired);
    const sent = await api.sendMessage(ADA.id, "Tap", {
      reply_markup: { inline_keyboard: [[{ text: "Tap", callback_data: "t" }]] },
    });
    const queryId = tg.user(ADA).tap(ADA.id, sent.message_id, "t");
    const tooLong = await refusal(api.answerCallbackQuery(queryId, { text: "x".repeat(201) }));
    expect(tooLong.description).toBe("Bad Request: MESSAGE_TOO_LONG");
    await api.answerCallbackQuery(queryId, { text: "Done", show_alert: true });
    expect((await refusal(api.answerCallbackQuery(queryId))).description).toBe(expired);
    expect(tg.callbackAnswers).toEqual([{ callback_query_id: queryId, text: "Done", show_alert: true }]);
  });

  it("answers 401 Unauthorized to a wrong token and 404 to an unknown method", async () => {
    const tg = await fake();
    const wrong = await refusal(botFor(tg, "999:WRONG").api.getMe());
    expect([wrong.error_code, wrong.description]).toEqual([401, "Unauthorized"]);
    const response = await fetch(`${tg.apiRoot}/bot${tg.token}/sendTelepathy`, { method: "POST" });
    expect([response.status, await response.json()]).toEqual([
      404,
      { ok: false, error_code: 404, description: "Not Found" },
    ]);
    expect(tg.calls).toEqual([]);
  });
});
