/**
 * The people of instances-all.test.ts on Telegram and Discord (Slack: instances-all-slack.ts): each answers a question by a tap,
 * a text reply or Other… (Telegram: force-reply; Discord and Slack: a modal), and each platform's audit
 * counts what the platform received per question — one prompt, one summary edit, one confirmation per
 * reply, one answer per tap — and nothing more.
 */
import type { FakeDiscord, FakeInteraction } from "@ask-user/testkit/discord";
import type { FakeTelegram } from "@ask-user/testkit/telegram";
import { expect } from "vitest";

/** How a person answers: a tap on an option, a text reply, or Other… and their own words. */
export type Kind = "tap" | "text" | "other";

/** One question of the scenario: `tag` is in its text and its run id; `answer` is what the person gives. */
export interface Question {
  tag: string;
  kind: Kind;
  answer: string;
}

/** The HTTP body of the question `tag` aimed at `target`. */
export function questionBody(tag: string, target: string) {
  return {
    runId: tag,
    target,
    questions: [
      {
        id: "deploy_target",
        header: "Deploy",
        question: `Where should I deploy (${tag})?`,
        options: [{ label: "Staging (Recommended)", description: "Safe" }, { label: "Production" }],
      },
    ],
  };
}

/** A person on one platform, and what that platform received. */
export interface Driver {
  name: "telegram" | "discord" | "slack";
  target: string;
  /** Waits for the prompt of `tag` and remembers its message. */
  prompt(tag: string): Promise<void>;
  /** Answers as `question.kind` says; resolves once the platform shows the person was heard. */
  answer(question: Question, timeoutMs: number): Promise<void>;
  /** Waits until the prompt shows its summary (the question ended and its message was edited). */
  settled(question: Question, timeoutMs: number): Promise<void>;
  /** Asserts what the platform received for these questions (all of them: totals are checked too). */
  audit(questions: Question[]): void;
  /** Everything the bot said that a person can read. */
  texts(): string[];
}

/** How many of `questions` are answered so. */
export const count = (questions: Question[], kind: Kind) => questions.filter((q) => q.kind === kind).length;

/** The prompt message remembered for `tag` (its id or ts). */
export function remembered<T>(prompts: Map<string, T>, tag: string): T {
  const id = prompts.get(tag);
  if (id === undefined) throw new Error(`no prompt seen for ${tag}`);
  return id;
}

/** Ada in her private chat with the bot. */
export function telegramDriver(tg: FakeTelegram): Driver {
  const ada = tg.user({ id: 42, first_name: "Ada", username: "ada", language_code: "en" });
  const chat = ada.id;
  const prompts = new Map<string, number>();
  const taps: string[] = [];
  const fromBot = () => tg.messages(chat).filter((m) => m.from.is_bot);
  const botRepliesTo = (id: number) => fromBot().filter((m) => m.reply_to_message_id === id);
  const summary = (q: Question) => `✅ Deploy: ${q.answer} — @\u2060ada`;
  return {
    name: "telegram",
    target: `telegram:${chat}`,
    async prompt(tag) {
      const message = await tg.waitUntil(() => fromBot().find((m) => m.text.includes(`(${tag})`)), 10_000);
      prompts.set(tag, message.message_id);
    },
    async answer(q, timeoutMs) {
      const id = remembered(prompts, q.tag);
      const press = async (label: string, text: string) => {
        const query = ada.press(chat, id, label);
        taps.push(query);
        expect(await ada.waitForAnswer(query, timeoutMs)).toMatchObject({ text, show_alert: false });
      };
      if (q.kind === "tap") return press(q.answer, `Recorded: ${q.answer}`);
      let replyTo = id;
      if (q.kind === "other") {
        await press("Other…", "Type your answer as a reply.");
        replyTo = (await tg.waitUntil(() => botRepliesTo(id)[0], timeoutMs)).message_id; // the force-reply
      }
      const sent = ada.sendText(chat, q.answer, { replyTo });
      // A typed answer is confirmed with a 👍 reaction (the prompt's edit to the summary says the rest).
      await tg.waitUntil(() => tg.message(chat, sent.message_id)?.reactions?.includes("👍"), timeoutMs);
    },
    async settled(q, timeoutMs) {
      const id = remembered(prompts, q.tag);
      await tg.waitUntil(() => tg.message(chat, id)?.text === summary(q), timeoutMs);
    },
    audit(questions) {
      for (const q of questions) {
        const id = remembered(prompts, q.tag);
        const sends = tg.calls.filter(
          (c) => c.method === "sendMessage" && String(c.params.text).includes(`(${q.tag})`),
        );
        expect(sends, `telegram prompts of ${q.tag}`).toHaveLength(1);
        const edits = tg.calls.filter(
          (c) => c.method.startsWith("editMessage") && Number(c.params.message_id) === id,
        );
        expect(
          edits.map((c) => c.error),
          `telegram edits of ${q.tag}`,
        ).toEqual([undefined]);
        expect(tg.message(chat, id)?.text).toBe(summary(q));
        expect(tg.message(chat, id)?.reply_markup).toBeUndefined(); // the buttons are gone
        expect(botRepliesTo(id), `telegram force-replies of ${q.tag}`).toHaveLength(
          q.kind === "other" ? 1 : 0,
        );
      }
      // Every message Ada sent was confirmed once, with a reaction; the bot said nothing else.
      for (const mine of tg.messages(chat).filter((m) => !m.from.is_bot)) {
        expect(botRepliesTo(mine.message_id)).toEqual([]);
        expect(tg.message(chat, mine.message_id)?.reactions).toEqual(["👍"]);
      }
      expect(fromBot()).toHaveLength(questions.length + count(questions, "other"));
      for (const query of taps) {
        const answers = tg.calls.filter(
          (c) => c.method === "answerCallbackQuery" && c.params.callback_query_id === query,
        );
        expect(
          answers.map((c) => c.error),
          `answers to tap ${query}`,
        ).toEqual([undefined]);
      }
      expect(taps).toHaveLength(count(questions, "tap") + count(questions, "other"));
      // One poller at a time: Telegram never refused a getUpdates with 409 Conflict.
      expect(tg.calls.filter((c) => c.method === "getUpdates" && c.error !== undefined)).toEqual([]);
    },
    texts: () => [...fromBot().map((m) => m.text), ...tg.callbackAnswers.map((a) => a.text ?? "")],
  };
}

/** Ada in the guild's #general, plus what no gateway connection received (`lost`). */
export function discordDriver(discord: FakeDiscord): Driver & { lost: string[] } {
  const ada = discord.user({ id: "42", username: "ada" });
  const channel = discord.guild.channelId;
  const prompts = new Map<string, string>();
  const lost: string[] = [];
  const live = () => discord.sessions().some((s) => s.connected);
  const fromBot = () => discord.messages(channel).filter((m) => m.author.id === discord.bot.id);
  const botRepliesTo = (id: string) => fromBot().filter((m) => m.message_reference?.message_id === id);
  /** Whether the bot confirmed the person's message with its ✅ reaction, once. */
  const confirmedBy = (id: string) =>
    discord.message(channel, id)?.reactions?.some((r) => r.me && r.emoji.name === "✅" && r.count === 1) ??
    false;

  /**
   * Does `act` until a gateway connection receives it. Discord hands a click or a message only to the
   * connections open at that moment: one made while no instance holds the gateway reaches nobody, the
   * person sees "This interaction failed" (or no confirmation), and does it again — here as soon as a
   * connection is back, so that the takeover time is measured closely.
   */
  async function untilReceived<T extends { id: string }>(act: () => T, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const done = act(); // the fake dispatches synchronously: `live()` right after is the moment it did
      if (live()) return done;
      lost.push(done.id);
      if (Date.now() > deadline) throw new Error("no Discord gateway connection came back");
      await discord.waitUntil(live, 1_000).catch(() => undefined);
    }
  }
  const responded = async (interaction: FakeInteraction, timeoutMs: number) =>
    (await discord.waitForResponse(interaction, timeoutMs)).type;

  return {
    name: "discord",
    target: `discord:${channel}`,
    lost,
    async prompt(tag) {
      const message = await discord.waitUntil(
        () => fromBot().find((m) => m.content.includes(`(${tag})`)),
        10_000,
      );
      prompts.set(tag, message.id);
    },
    async answer(q, timeoutMs) {
      const id = remembered(prompts, q.tag);
      if (q.kind === "text") {
        const sent = await untilReceived(() => ada.reply(channel, id, q.answer), timeoutMs);
        // A quiet confirmation: the bot's ✅ on the person's message (the prompt's summary says the rest).
        await discord.waitUntil(() => confirmedBy(sent.id), timeoutMs);
        return;
      }
      const tap = await untilReceived(
        () => ada.click(channel, id, q.kind === "tap" ? q.answer : "Other…"),
        timeoutMs,
      );
      if (q.kind === "tap") return void expect([6, 7]).toContain(await responded(tap, timeoutMs));
      expect(await responded(tap, timeoutMs)).toBe(9); // the modal
      const submitted = await untilReceived(() => ada.submitModal(tap, q.answer), timeoutMs);
      expect([6, 7]).toContain(await responded(submitted, timeoutMs));
    },
    async settled(q, timeoutMs) {
      const id = remembered(prompts, q.tag);
      await discord.waitUntil(
        () => discord.message(channel, id)?.content.startsWith(`✅ Deploy: ${q.answer} — `),
        timeoutMs,
      );
    },
    audit(questions) {
      for (const q of questions) {
        const id = remembered(prompts, q.tag);
        const posts = discord.calls.filter(
          (c) => c.route === "createMessage" && JSON.stringify(c.body).includes(`(${q.tag})`),
        );
        expect(posts, `discord prompts of ${q.tag}`).toHaveLength(1);
        // The summary: an update in the tap's response (type 7), an edit after a deferred one, or an edit.
        const onPrompt = discord.interactions.filter((i) => i.message_id === id);
        const edits =
          onPrompt.filter((i) => i.response?.type === 7).length +
          discord.calls.filter(
            (c) =>
              (c.route === "editMessage" && c.path.endsWith(`/messages/${id}`)) ||
              (c.route === "editOriginalInteractionResponse" &&
                onPrompt.some((i) => c.path.includes(i.token))),
          ).length;
        expect(edits, `discord summary edits of ${q.tag}`).toBe(1);
        const message = discord.message(channel, id);
        expect(message?.content).toBe(`✅ Deploy: ${q.answer} — @ada`);
        expect(message?.components).toEqual([]);
      }
      for (const mine of discord.messages(channel).filter((m) => m.author.id === ada.id)) {
        expect(confirmedBy(mine.id), mine.content).toBe(!lost.includes(mine.id));
        expect(botRepliesTo(mine.id)).toEqual([]);
      }
      expect(fromBot()).toHaveLength(questions.length);
      for (const interaction of discord.interactions) {
        if (lost.includes(interaction.id)) expect(interaction.response).toBeUndefined();
        else expect(interaction.response, `response to ${interaction.custom_id}`).toBeDefined();
      }
      expect(discord.calls.filter((c) => c.error !== undefined)).toEqual([]); // no 40060, no 10062
      expect(discord.ephemerals(ada.id)).toEqual([]);
      expect(discord.dmChannelId(ada.id)).toBeUndefined(); // no private notice
    },
    texts: () => [
      ...fromBot().map((m) => m.content),
      ...discord.ephemerals(ada.id).map((m) => m.content),
      ...discord.interactions.flatMap((i) => [i.reply?.content ?? "", ...i.followups.map((m) => m.content)]),
    ],
  };
}
