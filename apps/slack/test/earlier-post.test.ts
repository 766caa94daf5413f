/**
 * No orphan prompt after a crash (issue #20): prompts carry metadata naming their question, and a repair's
 * re-send adopts the prompt that reached Slack before the crash instead of posting a second one.
 */
import { createMemoryStore, type QuestionStore } from "@ask-user/core";
import { describe, expect, it } from "vitest";
import { EARLIER_POST_PAGE_LIMIT, EARLIER_POST_PAGES_MAX } from "../src/limits.ts";
import { ALICE, ask, CHANNEL, callsOf, DEPLOY, fakeSlack, waitForText, world } from "./harness.ts";

const MODE = "socket";

/**
 * The store as a crash leaves it when the post reached Slack but its `ts` never reached the store: no
 * delivery, and the claim of a process that is gone.
 */
async function forgetDelivery(store: QuestionStore, id: string): Promise<void> {
  const current = await store.get(id);
  if (!current) throw new Error(`no question ${id}`);
  const crashed = {
    ...current,
    version: current.version + 1,
    deliveries: [],
    claim: { by: "crashed-instance", until: Date.now() - 1 },
  };
  expect(await store.compareAndSet(current.version, crashed)).toBe(true);
}

/**
 * A question asked and posted by a first process, which then "crashes" before recording the post;
 * `where` gives the conversation (default the channel).
 */
async function postedBeforeCrash(where?: (slack: FakeSlackOf) => Promise<string>) {
  // Without echoes: the app's own prompt coming back while it restarts would find nobody to ack it.
  const slack = await fakeSlack({ echoBotMessages: false });
  const store = createMemoryStore();
  const before = await world(MODE, { slack, store });
  const conversation = where ? await where(slack) : CHANNEL;
  const { record, ts } = await ask(before, DEPLOY, conversation);
  await before.stop();
  await forgetDelivery(store, record.id);
  return { slack, store, record, ts };
}
type FakeSlackOf = Awaited<ReturnType<typeof fakeSlack>>;

/** The prompt messages (those with buttons) of a conversation, thread replies included. */
const prompts = (slack: FakeSlackOf, channel = CHANNEL) =>
  slack.messages(channel).filter((m) => m.blocks.some((b) => b.type === "actions"));

describe("prompts after a crash on Slack", () => {
  it("posts every prompt with metadata naming its question", async () => {
    const w = await world(MODE);
    const { record, ts } = await ask(w, DEPLOY);
    expect(w.slack.message(CHANNEL, ts)?.metadata).toEqual({
      event_type: "ask_user_prompt",
      event_payload: { question_id: record.id },
    });
  });

  it("a repair finds the prompt posted just before the crash and keeps it: one prompt, and its buttons answer", async () => {
    const { slack, store, record, ts } = await postedBeforeCrash();
    const after = await world(MODE, { slack, store });
    await after.broker.ready;
    await after.broker.idle();

    expect(prompts(slack).map((m) => m.ts)).toEqual([ts]);
    expect(callsOf(slack, "chat.postMessage")).toHaveLength(1);
    const [lookup] = callsOf(slack, "conversations.history");
    expect(lookup?.params).toMatchObject({ channel: CHANNEL, include_all_metadata: "true" });
    expect((await store.get(record.id))?.deliveries).toEqual([
      expect.objectContaining({ kind: "prompt", messageId: ts, conversation: CHANNEL }),
    ]);
    await after.alice.press(CHANNEL, ts, "Production");
    expect(await after.broker.wait(record.id)).toEqual({
      status: "answered",
      answers: { answers: { env: ["Production"] } },
    });
    await waitForText(slack, CHANNEL, ts, "✅ Deploy: Production — @alice");
  });

  it("in a thread, looks in the thread's replies and keeps the prompt posted there", async () => {
    let root = "";
    const { slack, store, record, ts } = await postedBeforeCrash(async (fake) => {
      root = (await fake.user(ALICE).say(CHANNEL, "please ask me here")).message.ts;
      return `${CHANNEL}:${root}`;
    });
    expect(slack.message(CHANNEL, ts)?.thread_ts).toBe(root);
    const after = await world(MODE, { slack, store });
    await after.broker.ready;
    await after.broker.idle();

    expect(prompts(slack).map((m) => m.ts)).toEqual([ts]);
    expect(callsOf(slack, "conversations.history")).toEqual([]);
    expect(callsOf(slack, "conversations.replies").map((c) => c.params.ts)).toEqual([root]);
    expect((await store.get(record.id))?.deliveries.map((d) => d.messageId)).toEqual([ts]);
    await after.alice.press(CHANNEL, ts, "Staging (Recommended)");
    expect((await after.broker.wait(record.id)).status).toBe("answered");
  });

  it("posts again, and says once why, when the app may not read the conversation's history", async () => {
    const slack = await fakeSlack({ echoBotMessages: false });
    const store = createMemoryStore();
    const before = await world(MODE, { slack, store });
    const first = await ask(before, DEPLOY);
    const second = await ask(before, DEPLOY);
    await before.stop();
    await forgetDelivery(store, first.record.id);
    await forgetDelivery(store, second.record.id);
    slack.failNext("conversations.history", { error: "missing_scope" });
    slack.failNext("conversations.history", { error: "missing_scope" });

    const after = await world(MODE, { slack, store });
    await after.broker.ready;
    await after.broker.idle();
    expect(callsOf(slack, "conversations.history").map((c) => c.error)).toEqual([
      "missing_scope",
      "missing_scope",
    ]);
    expect(prompts(slack)).toHaveLength(4); // the two orphans, and the two posted again
    const said = after.logger.lines.filter((line) => line.includes("missing scope channels:history"));
    expect(said).toHaveLength(1);
    for (const { record } of [first, second]) {
      const delivered = (await store.get(record.id))?.deliveries[0]?.messageId;
      expect(delivered).not.toBe(first.ts);
      expect(delivered).not.toBe(second.ts);
    }
  });

  it(`reads at most ${EARLIER_POST_PAGES_MAX} pages of history since the question was stored, then posts again`, async () => {
    const { slack, store, record, ts } = await postedBeforeCrash();
    const chatter = await world(MODE, { slack });
    const later = EARLIER_POST_PAGES_MAX * EARLIER_POST_PAGE_LIMIT;
    for (let i = 0; i < later; i++)
      await chatter.app.client.chat.postMessage({ channel: CHANNEL, text: `n${i}` });
    await chatter.stop();

    const after = await world(MODE, { slack, store });
    await after.broker.ready;
    await after.broker.idle();
    const lookups = callsOf(slack, "conversations.history");
    expect(lookups).toHaveLength(EARLIER_POST_PAGES_MAX);
    const oldest = Number(lookups[0]?.params.oldest);
    expect(oldest).toBeGreaterThan((record.createdAt - 120_000) / 1000);
    expect(oldest).toBeLessThanOrEqual(record.createdAt / 1000);
    const delivered = (await store.get(record.id))?.deliveries[0]?.messageId;
    expect(prompts(slack).map((m) => m.ts)).toEqual([ts, delivered]);
  });
});
