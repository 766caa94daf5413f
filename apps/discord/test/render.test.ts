import { normalizeAskUserInput } from "@ask-user/core";
import { newActionToken } from "@ask-user/core/channel";
import { sampleRecord } from "@ask-user/core/testing";
import { describe, expect, it } from "vitest";
import {
  deadlineText,
  discordTime,
  discordView,
  escapeMarkdown,
  formatConversation,
  parseConversation,
  renderButtons,
  renderFormComponents,
  renderNotice,
  renderOtherModal,
  renderPrompt,
  shorten,
} from "../src/index.ts";

const chars = (text: string) => [...text].length;

describe("escapeMarkdown", () => {
  it.each([
    [
      "**bold** _it_ ~~s~~ `code` ||spoiler||",
      "\\*\\*bold\\*\\* \\_it\\_ \\~\\~s\\~\\~ \\`code\\` \\|\\|spoiler\\|\\|",
    ],
    ["[link](https://x.test)", "\\[link\\](https://x.test)"],
    ["<@123> <#456> <t:1:R>", "\\<@123\\> \\<#456\\> \\<t:1:R\\>"],
    [
      "# heading\n> quote\n- item\n-# small\n1. first",
      "\\# heading\n\\> quote\n\\- item\n\\-# small\n1\\. first",
    ],
    ["ping @everyone and @HERE", "ping @\u200beveryone and @\u200bHERE"],
    ["back\\slash", "back\\\\slash"],
    ["plain text, 1.5 hours", "plain text, 1.5 hours"],
  ])("escapes %j", (input, expected) => {
    expect(escapeMarkdown(input)).toBe(expected);
  });
});

describe("shorten", () => {
  it("keeps short text and cuts long text to the limit with an ellipsis, never inside an emoji", () => {
    expect(shorten("short", 10)).toBe("short");
    expect(shorten("abcdefghij", 5)).toBe("abcd…");
    const cut = shorten("👍🏽👍🏽👍🏽", 5);
    expect(chars(cut)).toBeLessThanOrEqual(5);
    expect(cut).toBe("👍🏽👍🏽…");
    expect(shorten("abc\\*", 5)).toBe("abc\\*");
    expect(shorten("abc\\*def", 5)).toBe("abc…");
  });
});

describe("parseConversation", () => {
  it.each([
    ["123456789012345678", { kind: "channel", id: "123456789012345678" }],
    ["channel:123456789012345678", { kind: "channel", id: "123456789012345678" }],
    ["<#123456789012345678>", { kind: "channel", id: "123456789012345678" }],
    ["user:123456789012345678", { kind: "user", id: "123456789012345678" }],
    ["<@!123456789012345678>", { kind: "user", id: "123456789012345678" }],
    ["general", undefined],
    ["user:abc", undefined],
    ["12", undefined],
    ["<#123456789012345678", undefined],
    ["  user:123456789012345678 ", { kind: "user", id: "123456789012345678" }],
  ])("reads %j", (input, expected) => {
    expect(parseConversation(input)).toEqual(expected);
  });

  it("gives undefined, never an exception, for anything that is not a conversation", () => {
    for (const input of ["", "   ", "user:", "<@>", "channel:1234567890123456789012", undefined, 42]) {
      expect(parseConversation(input as string)).toBeUndefined();
    }
  });

  it("writes the canonical form, which reads back the same", () => {
    const id = "123456789012345678";
    expect(formatConversation({ kind: "user", id })).toBe(`user:${id}`);
    expect(formatConversation({ kind: "channel", id })).toBe(id);
    for (const text of [`<@${id}>`, `channel:${id}`]) {
      const parsed = parseConversation(text);
      expect(parsed && parseConversation(formatConversation(parsed))).toEqual(parsed);
    }
  });
});

describe("rendering a prompt", () => {
  const manyOptions = sampleRecord({
    prompt: {
      questions: [
        {
          id: "pick",
          header: "Pick",
          question: "Which one?",
          multiSelect: false,
          options: ["A", "B", "C", "D", "E", "F", "G"].map((label) => ({ label: label.repeat(90) })),
        },
      ],
      timeoutSeconds: 900,
    },
  });

  it("puts at most five buttons in a row, then Other… and Skip, labels within 80 characters", () => {
    const rows = renderButtons(discordView(manyOptions, true));
    expect(rows.map((row) => row.components.length)).toEqual([5, 2, 2]);
    const labels = rows.flatMap((row) => row.components.map((b) => b.label ?? ""));
    expect(Math.max(...labels.map(chars))).toBe(80);
    expect(labels.slice(-2)).toEqual(["Other…", "Skip"]);
    expect(rows.flatMap((row) => row.components.map((b) => b.custom_id.length)).every((n) => n <= 100)).toBe(
      true,
    );
  });

  it("fits a huge several-question prompt into 2000 characters and keeps the deadline", () => {
    const prompt = normalizeAskUserInput({
      questions: [1, 2, 3].map((n) => ({
        id: `q${n}`,
        header: `Q${n}`,
        question: `${"Long question text. ".repeat(49)}?`,
        multiSelect: true,
        options: [1, 2, 3, 4].map((o) => ({ label: `Option ${o}`, description: "d".repeat(500) })),
      })),
    });
    const tokens = prompt.questions.map(() => newActionToken(Date.UTC(2026, 11, 5)));
    const record = sampleRecord({ prompt, tokens, expiresAt: 1_800_000_000_000 });
    const { content } = renderPrompt(discordView(record, false));
    expect(chars(content)).toBeLessThanOrEqual(2000);
    expect(content.endsWith(`-# Expires at ${deadlineText(1_800_000_000_000)}.`)).toBe(true);
    expect(content).toContain("Option 4");
  });

  it("fits long descriptions into 2000 characters and keeps every option label, in a form and with buttons", () => {
    const options = [1, 2, 3, 4].map((n) => ({
      label: `Option ${n}`,
      description: `${n} ${"why ".repeat(300)}`,
    }));
    const questions = [1, 2, 3].map((n) => ({
      id: `q${n}`,
      header: `Q${n}`,
      question: `Question ${n}?`,
      multiSelect: n === 2,
      options,
    }));
    const form = sampleRecord({
      prompt: { questions, timeoutSeconds: 900 },
      tokens: questions.map(() => newActionToken(Date.UTC(2026, 11, 5))),
    });
    const message = renderPrompt(discordView(form, false));
    expect(chars(message.content)).toBeLessThanOrEqual(2000);
    for (const n of [1, 2, 3]) expect(message.content).toContain(`${n}) Q${n}: Question ${n}?`);
    expect(message.content.match(/^ {3}\d\\\. Option \d/gm)).toHaveLength(12);
    expect(message.components).toHaveLength(4); // the selects keep every option (descriptions cut to 100)

    const single = {
      ...form,
      prompt: { questions: [{ ...questions[0], multiSelect: false }], timeoutSeconds: 900 },
    };
    const buttons = renderPrompt(discordView(single as typeof form, true));
    expect(chars(buttons.content)).toBeLessThanOrEqual(2000);
    expect(buttons.content).toMatch(/^\*\*Q1\*\*\nQuestion 1\?\n/);
    for (const n of [1, 2, 3, 4]) expect(buttons.content).toContain(`• **Option ${n}** — ${n} why why`);
    expect(buttons.components[0]?.components.map((b) => ("label" in b ? b.label : ""))).toEqual(
      options.map((o) => o.label),
    );
  });

  it("keeps a button prompt within 2000 characters with the hint line", () => {
    const record = sampleRecord({
      prompt: {
        questions: [
          {
            id: "q",
            header: "H",
            question: "Q? ".repeat(333),
            multiSelect: false,
            options: [1, 2, 3, 4].map((n) => ({ label: `L${n}`, description: "*".repeat(500) })),
          },
        ],
        timeoutSeconds: 900,
      },
    });
    const { content } = renderPrompt(discordView(record, true), "mention the bot");
    expect(chars(content)).toBeLessThanOrEqual(2000);
    expect(content).toMatch(/\n-# mention the bot$/);
  });

  it("builds the Other… modal within Discord's limits", () => {
    const question = {
      id: "q",
      header: "Header",
      question: "A question much longer than forty-five characters, surely?",
      multiSelect: false,
      options: [{ label: "A" }, { label: "B" }],
    };
    const modal = renderOtherModal("au1.AAAAAAAAAAAAAAAA.o", question, "de");
    expect(modal.title).toBe("Header");
    const top = modal.components[0];
    const input = top && "components" in top ? top.components[0] : undefined;
    expect(input).toMatchObject({ style: 2, required: true, max_length: 4000, placeholder: "Deine Antwort" });
    expect(chars(String(input && "label" in input ? input.label : ""))).toBe(45);
  });

  it("escapes notices and keeps them within 2000 characters", () => {
    expect(renderNotice("✅ Deploy: **x** — @alice")).toBe("✅ Deploy: \\*\\*x\\*\\* — @alice");
    expect(chars(renderNotice("a".repeat(5000)))).toBe(2000);
  });
});

describe("rendering a form", () => {
  const record = sampleRecord({
    prompt: {
      questions: [
        {
          id: "a",
          header: "Env",
          question: "Where?",
          multiSelect: false,
          options: [{ label: "X" }, { label: "Y" }],
        },
        {
          id: "b",
          header: "Regions",
          question: "Which?",
          multiSelect: true,
          options: [{ label: "EU" }, { label: "US" }],
        },
      ],
      timeoutSeconds: 900,
    },
    tokens: ["AAAAAAAAAAAAAAAA", "BBBBBBBBBBBBBBBB"],
    draft: { a: ["Y"], b: ["EU", "free text"] },
  });

  it("marks the draft's picks as selected and names the buttons in the prompt's language", () => {
    const rows = renderFormComponents(discordView({ ...record, locale: "de" }, false));
    const selects = rows.slice(0, 2).map((row) => row.components[0]);
    expect(
      selects.map((s) => s && "options" in s && s.options.filter((o) => o.default).map((o) => o.label)),
    ).toEqual([["Y"], ["EU"]]);
    expect(rows[2]?.components.map((b) => ("label" in b ? b.label : ""))).toEqual([
      "Env: Sonstiges…",
      "Regions: Sonstiges…",
      "Überspringen",
      "Senden",
    ]);
  });
});

describe("times in notices", () => {
  it("shows a time of day within 12 hours, the date and time further away", () => {
    const now = 1_800_000_000_000;
    expect(discordTime(now - 11 * 3_600_000, now)).toBe(`<t:${now / 1000 - 11 * 3600}:t>`);
    expect(discordTime(now - 13 * 3_600_000, now)).toBe(`<t:${now / 1000 - 13 * 3600}:f>`);
  });
});

describe("who a prompt is for", () => {
  it("starts a shared prompt with For and the person, a mention kept, anything else escaped", () => {
    const record = sampleRecord();
    expect(renderPrompt(discordView(record, true, "<@200000000000000001>")).content).toMatch(
      /^For <@200000000000000001>\n\*\*Deploy\*\*\n/,
    );
    expect(renderPrompt(discordView({ ...record, locale: "de" }, true, "@ali*ce")).content).toMatch(
      /^Für @ali\\\*ce\n/,
    );
  });
});
