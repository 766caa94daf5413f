import { describe, expect, it } from "vitest";
import { commandEntities, withMentions } from "../src/telegram/format.ts";
import { parseHtml } from "../src/telegram/html.ts";
import { parseMarkdown, parseMarkdownV2 } from "../src/telegram/markdown.ts";

describe("HTML parse mode", () => {
  it("turns nested tags, links and code blocks into the text a user sees plus entities", () => {
    const parsed = parseHtml(
      '<b>Hi <i>you</i></b> &lt;3 <a href="https://x.dev?a=1&amp;b=2">link</a>\n' +
        '<pre><code class="language-ts">let a;</code></pre><span class="tg-spoiler">s</span>',
    );
    expect(parsed).toEqual({
      ok: true,
      text: "Hi you <3 link\nlet a;s",
      entities: [
        { type: "bold", offset: 0, length: 6 },
        { type: "italic", offset: 3, length: 3 },
        { type: "text_link", offset: 10, length: 4, url: "https://x.dev?a=1&b=2" },
        { type: "pre", offset: 15, length: 6, language: "ts" },
        { type: "spoiler", offset: 21, length: 1 },
      ],
    });
  });

  it("reports errors with Telegram's wording and UTF-8 byte offsets", () => {
    expect(parseHtml("é <br>")).toEqual({ ok: false, error: 'Unsupported start tag "br" at byte offset 3' });
    expect(parseHtml("a </b>")).toEqual({ ok: false, error: "Unexpected end tag at byte offset 2" });
    expect(parseHtml("<b><i>x</b></i>")).toEqual({
      ok: false,
      error: 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"',
    });
    expect(parseHtml("<b")).toEqual({ ok: false, error: "Unclosed start tag at byte offset 0" });
    expect(parseHtml('<span class="x">y</span>').ok).toBe(false);
    expect(parseHtml("1 < 2").ok).toBe(false);
  });
});

describe("MarkdownV2 parse mode", () => {
  it("parses entities and escapes", () => {
    expect(parseMarkdownV2("*bold _it_* __u__ ~s~ ||sp|| `c\\`` [l](https://x.dev/\\)) 1\\.0")).toEqual({
      ok: true,
      text: "bold it u s sp c` l 1.0",
      entities: [
        { type: "bold", offset: 0, length: 7 },
        { type: "italic", offset: 5, length: 2 },
        { type: "underline", offset: 8, length: 1 },
        { type: "strikethrough", offset: 10, length: 1 },
        { type: "spoiler", offset: 12, length: 2 },
        { type: "code", offset: 15, length: 2 },
        { type: "text_link", offset: 18, length: 1, url: "https://x.dev/)" },
      ],
    });
    expect(parseMarkdownV2("```js\nx = 1\n```\n>quoted\n>lines\nafter")).toMatchObject({
      ok: true,
      text: "x = 1\n\nquoted\nlines\nafter",
      entities: [
        { type: "pre", offset: 0, length: 6, language: "js" },
        { type: "blockquote", offset: 7, length: 12 },
      ],
    });
  });

  it("refuses unescaped reserved characters and unclosed entities", () => {
    expect(parseMarkdownV2("Done!")).toEqual({
      ok: false,
      error: "Character '!' is reserved and must be escaped with the preceding '\\'",
    });
    expect(parseMarkdownV2("a *bold")).toEqual({
      ok: false,
      error: "Can't find end of Bold entity at byte offset 2",
    });
    expect(parseMarkdownV2("`code").ok).toBe(false);
  });

  it("keeps legacy Markdown lenient about punctuation but strict about unclosed entities", () => {
    expect(parseMarkdown("v1.0 is *out*!")).toEqual({
      ok: true,
      text: "v1.0 is out!",
      entities: [{ type: "bold", offset: 8, length: 3 }],
    });
    expect(parseMarkdown("snake_case")).toEqual({
      ok: false,
      error: "Can't find end of the entity starting at byte offset 5",
    });
  });
});

it("marks /commands in a user's text as bot_command entities", () => {
  expect(commandEntities("/start@ask_user_bot now, then /help")).toEqual([
    { type: "bot_command", offset: 0, length: 19 },
    { type: "bot_command", offset: 30, length: 5 },
  ]);
  expect(commandEntities("path/to/file")).toEqual([]);
});

describe("automatic mentions", () => {
  it("links @usernames in a bot's text like Telegram does, but not inside other entities", () => {
    expect(withMentions("hi @alice_admin and @bob, mail a@b.de", [])).toEqual([
      { type: "mention", offset: 3, length: 12 },
    ]);
    const code = [{ type: "code", offset: 0, length: 12 }];
    expect(withMentions("@alice_admin @carol_x", code)).toEqual([
      { type: "code", offset: 0, length: 12 },
      { type: "mention", offset: 13, length: 8 },
    ]);
    expect(withMentions("@\u2060alice_admin", [])).toEqual([]);
  });
});
