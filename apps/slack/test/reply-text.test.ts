import { describe, expect, it } from "vitest";
import { replyText } from "../src/reply-text.ts";

const BOT = "U0FAKEBOT";

describe("replyText turns Slack's message text into what the person typed", () => {
  it.each([
    // Slack's three escapes, decoded once
    ["1 &amp; 2", "1 & 2"],
    ["&lt;!channel&gt; is text", "<!channel> is text"],
    ["a &gt; b &lt; c", "a > b < c"],
    ["&amp;lt; stays an escape", "&lt; stays an escape"],
    ["&lt;@U0BOB&gt; typed as text", "<@U0BOB> typed as text"],
    // emoji shortcodes
    [":two:", "2️⃣"],
    [":one: :nine: :zero:", "1️⃣ 9️⃣ 0️⃣"],
    [":keycap_ten:", "🔟"],
    [":hash: :keycap_star:", "#️⃣ *️⃣"],
    [":white_check_mark: done", "✅ done"],
    [":+1::skin-tone-2:", "👍🏻"],
    [":wave::skin-tone-6: hi", "👋🏿 hi"],
    [":heart:", "❤️"],
    [":not_an_emoji: :party_parrot:", ":not_an_emoji: :party_parrot:"],
    ["at 10:30: fine", "at 10:30: fine"],
    ["1:30pm", "1:30pm"],
    // the bot's own mention, leading or trailing
    [`<@${BOT}> 2`, "2"],
    [`<@${BOT}|ask-user> 2`, "2"],
    [`<@${BOT}>: Production`, "Production"],
    [`2 <@${BOT}>`, "2"],
    [`<@${BOT}>\n1: 2\n2: 1`, "1: 2\n2: 1"],
    [`ask <@${BOT}> later`, `ask <@${BOT}> later`],
    // other mentions, channels, specials
    ["ping <@U0BOB|bob>", "ping @bob"],
    ["ping <@U0BOB>", "ping <@U0BOB>"],
    ["in <#C0GENERAL|general>", "in #general"],
    ["<!here> and <!channel>", "@here and @channel"],
    ["<!subteam^S123|@ops> and <!date^1767276300^{time}|14:05 UTC>", "@ops and 14:05 UTC"],
    // links
    ["<https://x.dev/a?b=1&amp;c=2>", "https://x.dev/a?b=1&c=2"],
    ["<http://x.dev|x.dev>", "x.dev"],
    ["<mailto:a@b.dev|a@b.dev>", "a@b.dev"],
    ["<https://x.dev/docs|the docs>", "the docs (https://x.dev/docs)"],
    // line breaks and the one-line keyed form, untouched
    ["1: 2\n2: EU, Asia", "1: 2\n2: EU, Asia"],
    ["1: 2; 2: 1", "1: 2; 2: 1"],
  ])("%j → %j", (wire, typed) => {
    expect(replyText(wire, BOT)).toBe(typed);
  });

  it("keeps a bot mention when it does not know the bot's id", () => {
    expect(replyText(`<@${BOT}> 2`)).toBe(`<@${BOT}> 2`);
  });
});
