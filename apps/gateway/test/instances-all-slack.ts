/** Alice on Slack for instances-all.test.ts: answers through Socket Mode, and what Slack received. */
import type { FakeSlack } from "@ask-user/testkit/slack";
import { expect } from "vitest";
import { count, type Driver, type Question, remembered } from "./instances-all-platforms.ts";

/** Alice in #general; one answer at a time (a person has one modal open). */
export function slackDriver(slack: FakeSlack): Driver {
  const CHANNEL = "C0GENERAL";
  const alice = slack.user({ id: "U0ALICE", name: "alice" });
  const prompts = new Map<string, string>();
  const fromBot = () => slack.messages(CHANNEL).filter((m) => m.bot_id !== undefined);
  const inThread = (ts: string) => fromBot().filter((m) => m.thread_ts === ts && m.ts !== ts);
  const summary = (q: Question) => `✅ Deploy: ${q.answer} — @alice`;
  /** Alice's text answers, each confirmed once by the bot's ✅ reaction. */
  const mine: string[] = [];
  const confirmed = (ts: string) =>
    slack
      .message(CHANNEL, ts)
      ?.reactions?.some(
        (r) => r.name === "white_check_mark" && r.users.includes(slack.bot.userId) && r.count === 1,
      ) ?? false;
  let queue: Promise<unknown> = Promise.resolve();

  const answerNow = async (q: Question, timeoutMs: number) => {
    const ts = remembered(prompts, q.tag);
    if (q.kind === "text") {
      const sent = await alice.say(CHANNEL, q.answer, { threadTs: ts });
      expect(sent.delivery.status).toBe(200);
      // A quiet confirmation: the bot's ✅ on Alice's message (the prompt's summary says the rest).
      await slack.waitUntil(() => confirmed(sent.message.ts), timeoutMs);
      mine.push(sent.message.ts);
      return;
    }
    const tap = await alice.press(CHANNEL, ts, q.kind === "tap" ? q.answer : "Other…");
    expect(tap.status).toBe(200);
    if (q.kind === "tap") return;
    const modal = await alice.waitForView(timeoutMs);
    expect((await alice.submit(modal.id, q.answer)).status).toBe(200);
  };

  return {
    name: "slack",
    target: `slack:${CHANNEL}`,
    async prompt(tag) {
      const message = await slack.waitUntil(() => fromBot().find((m) => m.text.includes(`(${tag})`)), 10_000);
      prompts.set(tag, message.ts);
    },
    answer(q, timeoutMs) {
      const turn = queue.then(() => answerNow(q, timeoutMs));
      queue = turn.catch(() => undefined);
      return turn;
    },
    async settled(q, timeoutMs) {
      const ts = remembered(prompts, q.tag);
      await slack.waitUntil(
        () => slack.display(slack.message(CHANNEL, ts)?.text ?? "") === summary(q),
        timeoutMs,
      );
    },
    audit(questions) {
      for (const q of questions) {
        const ts = remembered(prompts, q.tag);
        const posts = slack.calls.filter(
          (c) => c.method === "chat.postMessage" && String(c.params.text).includes(`(${q.tag})`),
        );
        expect(posts, `slack prompts of ${q.tag}`).toHaveLength(1);
        const updates = slack.calls.filter((c) => c.method === "chat.update" && c.params.ts === ts);
        expect(
          updates.map((c) => c.error),
          `slack edits of ${q.tag}`,
        ).toEqual([undefined]);
        const message = slack.message(CHANNEL, ts);
        expect(message?.edits).toBe(1);
        expect(slack.display(message?.text ?? "")).toBe(summary(q));
        expect(message?.blocks.filter((b) => b.type === "actions")).toEqual([]);
        expect(inThread(ts), `slack thread messages of ${q.tag}`).toEqual([]);
      }
      expect(mine.filter(confirmed)).toHaveLength(count(questions, "text"));
      expect(fromBot()).toHaveLength(questions.length);
      expect(slack.calls.filter((c) => c.method === "views.open")).toHaveLength(count(questions, "other"));
      expect(slack.views().filter((v) => v.open || v.errors)).toEqual([]);
      const fromAlice = slack.deliveries.filter(
        (d) => d.type !== "event_callback" || (d.request.event as { user?: string }).user === alice.id,
      );
      expect(fromAlice.map((d) => [d.type, d.status, d.lost, d.retryNum])).toEqual([
        ...questions.flatMap((q) =>
          q.kind === "text"
            ? [["event_callback", 200, undefined, undefined]]
            : q.kind === "tap"
              ? [["block_actions", 200, undefined, undefined]]
              : [
                  ["block_actions", 200, undefined, undefined],
                  ["view_submission", 200, undefined, undefined],
                ],
        ),
      ]);
      expect(slack.ephemerals).toEqual([]);
      expect(slack.responses).toEqual([]);
    },
    texts: () => [
      ...fromBot().map((m) => slack.display(m.text)),
      ...slack.ephemerals.map((e) => e.text),
      ...slack.responses.map((r) => JSON.stringify(r)),
    ],
  };
}
