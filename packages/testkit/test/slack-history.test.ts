/**
 * The fake's message metadata and history: `chat.postMessage` keeps `metadata`; `conversations.history`
 * and `conversations.replies` read it back with Slack's window, pages and `include_all_metadata`.
 */
import { describe, expect, it } from "vitest";
import { api, fakeSlack } from "./slack-harness.ts";

const C = "C0GENERAL";
const prompt = (id: string) => ({ event_type: "ask_user_prompt", event_payload: { question_id: id } });

/** A fake whose clock the test moves (message ts seconds follow it). */
async function clocked() {
  let now = Date.UTC(2026, 0, 5, 9, 0, 0);
  const slack = await fakeSlack({ now: () => now });
  return {
    slack,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const tsOf = (answer: { body: Record<string, unknown> }) => String(answer.body.ts);
const listed = (answer: { body: Record<string, unknown> }) =>
  (answer.body.messages as Array<Record<string, unknown>>).map((m) => [m.text, m.metadata]);

describe("fake Slack message metadata and conversation history", () => {
  it("keeps a post's metadata and lists it, newest first, only with include_all_metadata", async () => {
    const { slack } = await clocked();
    await api(slack, "chat.postMessage", { channel: C, text: "one", metadata: prompt("q1") });
    await api(slack, "chat.postMessage", { channel: C, text: "two" });
    const plain = await api(slack, "conversations.history", { channel: C });
    expect(plain.body).toMatchObject({ ok: true, has_more: false });
    expect(listed(plain)).toEqual([
      ["two", undefined],
      ["one", undefined],
    ]);
    const withMetadata = await api(slack, "conversations.history", {
      channel: C,
      include_all_metadata: true,
    });
    expect(listed(withMetadata)).toEqual([
      ["two", undefined],
      ["one", prompt("q1")],
    ]);
    expect(slack.messages(C)[0]?.metadata).toEqual(prompt("q1"));
  });

  it("refuses metadata that is not an event_type with an event_payload, and ignores a bad event_type with a warning", async () => {
    const { slack } = await clocked();
    const refused = await api(slack, "chat.postMessage", {
      channel: C,
      text: "x",
      metadata: { event_type: "a" },
    });
    expect(refused.body).toEqual({ ok: false, error: "invalid_metadata_format" });
    const notJson = await api(slack, "chat.postMessage", { channel: C, text: "x", metadata: "{oops" });
    expect(notJson.body.error).toBe("invalid_metadata_format");
    expect(slack.messages(C)).toEqual([]);
    const ignored = await api(slack, "chat.postMessage", {
      channel: C,
      text: "y",
      metadata: { event_type: "ask.user", event_payload: {} },
    });
    expect(ignored.body).toMatchObject({ ok: true, warning: "invalid_metadata_schema" });
    expect(slack.messages(C).map((m) => [m.text, m.metadata])).toEqual([["y", undefined]]);
  });

  it("gives the window between oldest and latest, both ends only with inclusive, and pages with limit and cursor", async () => {
    const { slack, advance } = await clocked();
    const ts: string[] = [];
    for (const text of ["a", "b", "c", "d", "e"]) {
      ts.push(tsOf(await api(slack, "chat.postMessage", { channel: C, text })));
      advance(1_000);
    }
    const texts = (answer: { body: Record<string, unknown> }) => listed(answer).map(([text]) => text);
    const between = { channel: C, oldest: ts[1], latest: ts[3] };
    expect(texts(await api(slack, "conversations.history", between))).toEqual(["c"]);
    expect(texts(await api(slack, "conversations.history", { ...between, inclusive: true }))).toEqual([
      "d",
      "c",
      "b",
    ]);
    // A bare seconds value: everything from that second on.
    const seconds = String(ts[2]).split(".")[0];
    expect(texts(await api(slack, "conversations.history", { channel: C, oldest: seconds }))).toEqual([
      "e",
      "d",
      "c",
    ]);

    const first = await api(slack, "conversations.history", { channel: C, limit: 2 });
    expect(texts(first)).toEqual(["e", "d"]);
    expect(first.body.has_more).toBe(true);
    const cursor = (first.body.response_metadata as { next_cursor: string }).next_cursor;
    const second = await api(slack, "conversations.history", { channel: C, limit: 2, cursor });
    expect(texts(second)).toEqual(["c", "b"]);
    const third = await api(slack, "conversations.history", {
      channel: C,
      limit: 2,
      cursor: (second.body.response_metadata as { next_cursor: string }).next_cursor,
    });
    expect(texts(third)).toEqual(["a"]);
    expect(third.body.has_more).toBe(false);
    expect(third.body.response_metadata).toBeUndefined();

    expect((await api(slack, "conversations.history", { channel: C, cursor: "bm9wZQ==" })).body.error).toBe(
      "invalid_cursor",
    );
    expect((await api(slack, "conversations.history", { channel: C, limit: 0 })).body.error).toBe(
      "invalid_limit",
    );
    expect((await api(slack, "conversations.history", { channel: "nope" })).body.error).toBe(
      "channel_not_found",
    );
    expect((await api(slack, "conversations.history", { channel: C, oldest: "soon" })).body.error).toBe(
      "invalid_ts_oldest",
    );
  });

  it("keeps thread replies out of the history and gives a thread with conversations.replies", async () => {
    const { slack, advance } = await clocked();
    const root = tsOf(await api(slack, "chat.postMessage", { channel: C, text: "root" }));
    advance(1_000);
    await api(slack, "chat.postMessage", { channel: C, text: "r1", thread_ts: root, metadata: prompt("q2") });
    advance(1_000);
    await api(slack, "chat.postMessage", { channel: C, text: "r2", thread_ts: root });
    await api(slack, "chat.postMessage", { channel: C, text: "later" });
    const history = await api(slack, "conversations.history", { channel: C });
    expect(listed(history).map(([text]) => text)).toEqual(["later", "root"]);

    const replies = await api(slack, "conversations.replies", {
      channel: C,
      ts: root,
      include_all_metadata: true,
    });
    expect(listed(replies)).toEqual([
      ["root", undefined],
      ["r1", prompt("q2")],
      ["r2", undefined],
    ]);
    const paged = await api(slack, "conversations.replies", { channel: C, ts: root, limit: 2 });
    expect(listed(paged).map(([text]) => text)).toEqual(["root", "r1"]);
    expect(paged.body.has_more).toBe(true);
    const missing = await api(slack, "conversations.replies", { channel: C, ts: "1.000001" });
    expect(missing.body.error).toBe("thread_not_found");
  });
});
