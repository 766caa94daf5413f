/**
 * The event stream listens to the broker only while someone could use what it hears: from the first
 * client on, and after the last one left until 1000 more events have passed (the resume window).
 */
import type { QuestionRecord } from "@ask-user/core";
import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { GatewayEnv } from "../src/http/env.ts";
import { EventStream } from "../src/http/events.ts";
import { listenersOnlyBroker } from "./harness.ts";

const streams: EventStream[] = [];
afterEach(() => {
  for (const stream of streams.splice(0)) stream.close();
});

/** A broker that only has listeners, and an event stream on it behind a one-route app. */
function setup() {
  const { broker, listeners } = listenersOnlyBroker();
  const events = new EventStream(broker);
  streams.push(events);
  const app = new Hono<GatewayEnv>().get("/events", (c) => events.serve(c));
  let n = 0;
  const emit = (count = 1) => {
    for (let i = 0; i < count; i++) {
      const record = { id: `q${++n}`, status: "pending" } as QuestionRecord;
      for (const listener of listeners) listener({ type: "question.requested", record });
    }
  };
  return { listeners, events, app, emit };
}

/** A client: what it received (event name and id, in order), and a way to leave. */
async function connect(app: Hono<GatewayEnv>, lastEventId?: string) {
  const response = await app.request("/events", {
    headers: lastEventId ? { "last-event-id": lastEventId } : {},
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const received: { event: string; id?: string; question?: string }[] = [];
  const decoder = new TextDecoder();
  const reading = (async () => {
    let buffer = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      buffer += decoder.decode(chunk.value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.+)$/m.exec(block)?.[1];
        if (event === undefined) continue;
        const id = /^id: (.+)$/m.exec(block)?.[1];
        const question = /"id":"([^"]+)"/.exec(block)?.[1];
        received.push({ event, ...(id ? { id } : {}), ...(question ? { question } : {}) });
      }
    }
  })().catch(() => undefined);
  return {
    received,
    leave: async () => {
      await reader.cancel();
      await reading;
    },
  };
}

describe("the event stream's broker listener", () => {
  it("is taken with the first client, and that client gets every event from then on", async () => {
    const { listeners, events, app, emit } = setup();
    expect(listeners.size).toBe(0);
    emit(3); // nobody listens: nothing is kept
    expect(events.listening).toBe(false);
    const client = await connect(app);
    expect(listeners.size).toBe(1);
    emit(3);
    await vi.waitFor(() => expect(client.received).toHaveLength(3));
    expect(client.received.map((e) => [e.event, e.question, e.id?.split("-")[1]])).toEqual([
      ["question.requested", "q4", "1"],
      ["question.requested", "q5", "2"],
      ["question.requested", "q6", "3"],
    ]);
    await client.leave();
  });

  it("keeps listening after the last client left while it can still resume, then lets go", async () => {
    const { listeners, events, app, emit } = setup();
    const first = await connect(app);
    emit(1);
    await vi.waitFor(() => expect(first.received).toHaveLength(1));
    const seen = first.received[0]?.id ?? "";
    await first.leave();
    await vi.waitFor(() => expect(events.size).toBe(0));

    // Within the window: a client coming back gets exactly what it missed.
    emit(5);
    const back = await connect(app, seen);
    await vi.waitFor(() => expect(back.received).toHaveLength(5));
    expect(back.received.map((e) => e.question)).toEqual(["q2", "q3", "q4", "q5", "q6"]);
    const last = back.received.at(-1)?.id ?? "";
    await back.leave();
    await vi.waitFor(() => expect(events.size).toBe(0));

    // 1000 events later it could still resume (all of them are kept); one more and nobody can.
    emit(1000);
    expect(listeners.size).toBe(1);
    emit(1);
    expect(listeners.size).toBe(0);
    expect(events.listening).toBe(false);
    emit(3); // not heard

    // An id from before is told to reset, and the stream listens again from this client on.
    const late = await connect(app, last);
    expect(listeners.size).toBe(1);
    emit(1);
    await vi.waitFor(() => expect(late.received).toHaveLength(2));
    expect(late.received.map((e) => [e.event, e.question])).toEqual([
      ["reset", undefined],
      ["question.requested", "q1011"],
    ]);
    await late.leave();
  });
});
