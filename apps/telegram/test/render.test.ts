import { normalizeAskUserInput } from "@ask-user/core";
import { buildPromptView, clipText, type QuestionRecord } from "@ask-user/core/channel";
import { sampleRecord } from "@ask-user/core/testing";
import { describe, expect, it } from "vitest";
import { formatConversation, parseConversation } from "../src/conversation.ts";
import {
  defuseMentions,
  escapeHtml,
  promptView,
  renderKeyboard,
  renderPrompt,
} from "../src/render/prompt.ts";
import { ADA, ask, buttons, start, visible } from "./harness.ts";

const long = (n: number, word = "word ") => word.repeat(Math.ceil(n / word.length)).slice(0, n);

function bigInput(questions: number) {
  return {
    questions: Array.from({ length: questions }, (_, q) => ({
      id: `q${q}`,
      header: `Header ${q}`,
      question: `${long(990)} end${q}?`,
      options: Array.from({ length: 4 }, (_, o) => ({
        label: `Option ${q}.${o} ${long(50, "x")}`,
        description: long(500, "desc "),
      })),
    })),
  };
}

function recordFor(input: unknown): QuestionRecord {
  const record = sampleRecord();
  const prompt = normalizeAskUserInput(input);
  // One action token per question, as every stored record has.
  return { ...record, prompt, tokens: prompt.questions.map((_, i) => `tok${i}`.padEnd(16, "0")) };
}

describe("rendering, pure", () => {
  it("escapes the characters Telegram's HTML reserves and defuses @mentions", () => {
    expect(escapeHtml('<b>a & "b"</b>')).toBe('&lt;b&gt;a &amp; "b"&lt;/b&gt;');
    expect(defuseMentions("ping @alice and @everyone, mail a@b.de")).toBe(
      "ping @\u2060alice and @\u2060everyone, mail a@\u2060b.de",
    );
  });

  it("cuts text with an ellipsis and never inside an emoji or a combining mark (core's clipText)", () => {
    const clip = clipText;
    expect(clip("Deploy to production now", 10)).toBe("Deploy to…");
    expect(clip("short", 10)).toBe("short");
    const cut = clip("ab👩‍👩‍👧‍👦cd", 6);
    expect(cut).toBe("ab…");
    expect(clip("e\u0301e\u0301e\u0301", 4)).toBe("e\u0301…");
  });

  it("puts core's action payload in every button, within Telegram's 64 bytes", () => {
    const record = sampleRecord();
    const question = record.prompt.questions[0];
    if (!question) throw new Error("sample has no question");
    const keyboard = renderKeyboard(promptView(record, { buttons: true }));
    const data = (keyboard?.inline_keyboard ?? [])
      .flat()
      .map((b) => ("callback_data" in b ? b.callback_data : ""));
    expect(data).toHaveLength(question.options.length + 2);
    for (const item of data) expect(Buffer.byteLength(item ?? "")).toBeLessThanOrEqual(64);
    expect(new Set(data).size).toBe(data.length);
  });

  it("cuts a button label longer than 64 UTF-16 units with an ellipsis, and keeps one of 64 whole", () => {
    const record = sampleRecord();
    const question = record.prompt.questions[0];
    if (!question) throw new Error("sample has no question");
    const emoji = "🚀".repeat(40); // 40 characters, 80 UTF-16 units
    const options = [{ label: emoji }, { label: "x".repeat(64) }];
    const prompt = { ...record.prompt, questions: [{ ...question, options }] };
    const keyboard = renderKeyboard(promptView({ ...record, prompt }, { buttons: true }));
    const [rocket, exact] = (keyboard?.inline_keyboard ?? []).map((row) => row[0]?.text ?? "");
    expect(rocket).toBe(`${"🚀".repeat(31)}…`);
    expect(exact).toBe("x".repeat(64));
  });

  it("keeps a long single question whole: it fits one message with every description", () => {
    const record = recordFor(bigInput(1));
    const { html } = renderPrompt(promptView(record, { buttons: true }));
    expect(html.replace(/<\/?b>/g, "").length).toBeLessThanOrEqual(4096);
    expect(html.split(long(500, "desc ").trim())).toHaveLength(5);
    expect(html).not.toContain("…");
  });

  it("shortens a prompt over 4096 characters, descriptions first, and keeps the deadline", () => {
    const record = recordFor(bigInput(3));
    // As readable text (a form that cannot be buttons): core's text, too long, written again shortened.
    const { html } = renderPrompt(buildPromptView(record), long(5000));
    const text = html.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
    expect(text.length).toBeLessThanOrEqual(4096);
    expect(text).not.toContain("desc desc");
    for (const q of [0, 1, 2]) expect(text).toContain(`Option ${q}.3`);
    expect(text).toMatch(/Expires at .* UTC\.$/);
  });

  it("says to reply to the message when asked to, also when the prompt had to be shortened", () => {
    const small = recordFor({
      questions: [
        {
          id: "q",
          header: "Q",
          question: "Which?",
          multiSelect: true,
          options: [{ label: "A" }, { label: "B" }],
        },
      ],
    });
    const hint = "Reply to this message to answer.";
    expect(renderPrompt(buildPromptView(small), "given").html).toBe("given");
    const inGroup = renderPrompt(buildPromptView(small, { replyToMessage: true }));
    expect(inGroup.html).toMatch(/\nReply to this message to answer\.\nExpires at .* UTC\.$/);
    const big = recordFor(bigInput(3));
    const { html } = renderPrompt(buildPromptView({ ...big, locale: "de" }, { replyToMessage: true }));
    expect(html.length).toBeLessThanOrEqual(4096);
    expect(html).toContain("Antworte auf diese Nachricht, um zu antworten.");
    expect(html).not.toContain(hint);
  });

  it("reads and writes conversation ids: chats and forum topics", () => {
    expect(parseConversation("123456")).toEqual({ chatId: 123456 });
    expect(parseConversation(" -1001234567890:42 ")).toEqual({ chatId: -1001234567890, threadId: 42 });
    for (const bad of ["@channel", "12:0", "abc", "", "1:2:3", "0"])
      expect(parseConversation(bad)).toBeUndefined();
    expect(formatConversation({ chatId: -100, threadId: 7 })).toBe("-100:7");
  });
});

describe("rendering, as Telegram shows it", () => {
  it("shows agent text literally: markup in it is text, and its @mentions notify no one", async () => {
    const running = await start("polling");
    const input = {
      questions: [
        {
          id: "x",
          header: "<b>Hi</b>",
          question: "Use </b> & <i>tags</i>, cc @alice_admin?",
          options: [{ label: "<a href='x'>A</a>", description: "&amp; @everyone" }, { label: "B & C" }],
        },
      ],
    };
    const { message } = await ask(running, input, String(ADA.id));
    expect(visible(message.text)).toMatch(
      /^<b>Hi<\/b>\nUse <\/b> & <i>tags<\/i>, cc @alice_admin\?\n\n1\. <a href='x'>A<\/a> — &amp; @everyone\n2\. B & C\n\nExpires at/,
    );
    expect(message.entities).toEqual([{ type: "bold", offset: 0, length: 9 }]);
    expect(buttons(message)[0]).toEqual(["<a href='x'>A</a>"]);
  });

  it("delivers a prompt that would pass 4096 characters, shortened", async () => {
    const running = await start("polling");
    const { record, message } = await ask(running, bigInput(3), String(ADA.id));
    expect(record.status).toBe("pending");
    expect(message.text.length).toBeLessThanOrEqual(4096);
    expect(message.text).toMatch(/Expires at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\.$/);
  });
});
