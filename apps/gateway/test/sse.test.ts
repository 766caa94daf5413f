import { describe, expect, it } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";

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
