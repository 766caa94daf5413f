import type { QuestionRecord } from "@ask-user/core";
import { Hono } from "hono";
import { describe, expect, it, vi } from "vitest";
import type { GatewayEnv } from "../src/http/env.ts";
import { EventStream } from "../src/http/events.ts";
import { call, deployInput, listenersOnlyBroker, testGateway } from "./harness.ts";

interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
}

/** Reads SSE events from a stream until `count` events arrived (bounded by the fetch timeout). */
async function readEvents(
  url: string,
  count: number,
  headers: Record<string, string> = {},
): Promise<SseEvent[]> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 5_000);
  const response = await fetch(url, { headers, signal: abort.signal });
  const events: SseEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: SseEvent = {};
        for (const line of block.split("\n")) {
          const [field, ...rest] = line.split(": ");
          const value = rest.join(": ");
          if (field === "id") event.id = value;
          if (field === "event") event.event = value;
          if (field === "data") event.data = value;
        }
        if (event.event) events.push(event);
        if (events.length >= count) return events;
        end = buffer.indexOf("\n\n");
      }
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return events;
}

describe("GET /v1/events", () => {
  it("streams requested, updated and resolved events, and resumes after Last-Event-ID", async () => {
    const gw = await testGateway();
    const live = readEvents(`${gw.url}/v1/events`, 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { body } = await call(`${gw.url}/v1/questions`, "POST", deployInput);
    await call(`${gw.url}/v1/questions/${body.id}/skip`, "POST", {});
    const events = await live;
    expect(events.map((e) => e.event)).toEqual(["question.requested", "question.resolved"]);
    const resolved = JSON.parse(events[1]?.data ?? "{}");
    expect(resolved).toMatchObject({
      type: "question.resolved",
      question: { id: body.id, status: "skipped" },
    });
    expect(resolved.question.tokens).toBeUndefined();

    // A client that saw only the first event gets exactly the rest.
    const resumed = await readEvents(`${gw.url}/v1/events`, 1, { "last-event-id": events[0]?.id ?? "" });
    expect(resumed.map((e) => [e.id, e.event])).toEqual([[events[1]?.id, "question.resolved"]]);
  });

  it("tells a client resuming from another process or instance to reset, and resumes its own ids", async () => {
    const first = await testGateway();
    const live = readEvents(`${first.url}/v1/events`, 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await call(`${first.url}/v1/questions`, "POST", deployInput);
    const [seen] = await live;
    expect(seen?.id).toMatch(/^[A-Za-z0-9]+-1$/);
    const second = await testGateway();
    const other = readEvents(`${second.url}/v1/events`, 2, { "last-event-id": seen?.id ?? "" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await call(`${second.url}/v1/questions`, "POST", deployInput);
    const events = await other;
    expect(events.map((e) => e.event)).toEqual(["reset", "question.requested"]);
    expect(events[1]?.id?.split("-")[0]).not.toBe(seen?.id?.split("-")[0]);
    // A bare counter from an older release is not guessed at either.
    const legacy = await readEvents(`${second.url}/v1/events`, 1, { "last-event-id": "1" });
    expect(legacy.map((e) => e.event)).toEqual(["reset"]);
  });

  it("cuts off a client that stopped reading once 1000 events wait for it, and gives a reader all of them", async () => {
    const { broker, listeners } = listenersOnlyBroker();
    const events = new EventStream(broker);
    const app = new Hono<GatewayEnv>().get("/events", (c) => events.serve(c));
    const stalled = await app.request("/events"); // its body is never read
    const reader = await app.request("/events");
    const received: string[] = [];
    const reading = (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      for await (const chunk of reader.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (const match of buffer.matchAll(/^id: (\S+)$/gm)) received.push(match[1] ?? "");
        buffer = buffer.slice(buffer.lastIndexOf("\n\n") + 2);
      }
    })();
    expect(stalled.status).toBe(200);
    expect(events.size).toBe(2);
    for (let i = 1; i <= 1500; i++) {
      const record = { id: `q${i}`, status: "pending" } as QuestionRecord;
      for (const listener of listeners) listener({ type: "question.requested", record });
      if (i % 100 === 0) await new Promise((resolve) => setTimeout(resolve, 0)); // the reader reads
    }
    await vi.waitFor(() => expect(received).toHaveLength(1500));
    expect(received.map((id) => Number(id.split("-")[1]))).toEqual(
      Array.from({ length: 1500 }, (_, i) => i + 1),
    );
    expect(events.size).toBe(1); // the stalled client is gone, the reader stays
    events.close();
    await reading; // closing ends the reader's stream
  });

  it("ends open streams at shutdown and closes at once, without waiting for the 2 s cut-off", async () => {
    const gw = await testGateway();
    const response = await fetch(`${gw.url}/v1/events`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read(); // the stream is open
    const started = Date.now();
    await gw.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      // drained to its end: the stream ended cleanly
    }
  });

  it("needs the token when one is set (also as ?token= for EventSource)", async () => {
    const token = "sse-token-0123456789abcdef";
    const gw = await testGateway({ ASK_USER_TOKEN: token });
    expect((await fetch(`${gw.url}/v1/events`)).status).toBe(401);
    const stream = readEvents(`${gw.url}/v1/events?token=${token}`, 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await call(`${gw.url}/v1/questions`, "POST", deployInput, { authorization: `Bearer ${token}` });
    expect((await stream).map((e) => e.event)).toEqual(["question.requested"]);
  });
});
