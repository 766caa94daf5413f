import { describe, expect, it } from "vitest";
import { parseSse, type SseItem } from "../src/sse.ts";

/** Parses `chunks` as one body, each chunk arriving separately. */
async function parse(chunks: string[]): Promise<SseItem[]> {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  const items: SseItem[] = [];
  for await (const item of parseSse(body, () => undefined)) items.push(item);
  return items;
}

describe("the event-stream parser", () => {
  it("reads events, ids, retry and skips comments", async () => {
    const items = await parse([
      ": keep-alive\n\n",
      "retry: 2000\n\n",
      "id: e-1\nevent: question.requested\ndata: {}\n\n",
    ]);
    expect(items).toEqual([
      { kind: "retry", ms: 2000 },
      { kind: "message", message: { event: "question.requested", data: "{}", id: "e-1" } },
    ]);
  });

  it("joins data lines, accepts CRLF and CR line ends and lines split across chunks", async () => {
    const items = await parse(["\uFEFFdata: a\r", "\ndata:b\r\rdata: c", "\n", "\n"]);
    expect(items).toEqual([
      { kind: "message", message: { event: "message", data: "a\nb", id: undefined } },
      { kind: "message", message: { event: "message", data: "c", id: undefined } },
    ]);
  });

  it("keeps the last id for later events, ignores ids with NUL and drops an unfinished event", async () => {
    const items = await parse(["id: 7\ndata: x\n\n", "id: bad\0id\ndata: y\n\n", "data: never dispatched"]);
    expect(items.map((item) => item.kind === "message" && item.message.id)).toEqual(["7", "7"]);
  });
});
