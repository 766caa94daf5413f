/** One dispatched Server-Sent Event. */
export interface SseMessage {
  /** The `event:` field, `message` when there was none. */
  event: string;
  data: string;
  /** The last event id seen on this stream (ids carry over to events without one, as in EventSource). */
  id: string | undefined;
}

/** What the parser reports: an event, or a new reconnection time from a `retry:` field. */
export type SseItem = { kind: "message"; message: SseMessage } | { kind: "retry"; ms: number };

/**
 * Parses a `text/event-stream` body by the WHATWG rules EventSource follows: lines end in CRLF, LF or
 * CR; `:` starts a comment; a single space after the colon is dropped; `data` lines join with `\n`; an
 * empty line dispatches (nothing when there was no data); an `id` with NUL is ignored. `onChunk` is
 * called for every chunk read, comments (keep-alives) included.
 */
export async function* parseSse(
  body: ReadableStream<Uint8Array>,
  onChunk: () => void,
): AsyncGenerator<SseItem> {
  const decoder = new TextDecoder();
  let buffer = "";
  let first = true;
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      onChunk();
      buffer += decoder.decode(value, { stream: true });
      if (first && buffer.length > 0) {
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
        first = false;
      }
      for (let end = lineEnd(buffer); end !== undefined; end = lineEnd(buffer)) {
        const line = buffer.slice(0, end.at);
        buffer = buffer.slice(end.at + end.length);
        if (line === "") {
          if (data.length > 0)
            yield { kind: "message", message: { event: event || "message", data: data.join("\n"), id } };
          event = "";
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
        else if (field === "id" && !value.includes("\0")) id = value;
        else if (field === "retry" && /^\d+$/.test(value)) yield { kind: "retry", ms: Number(value) };
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** Where the first complete line of `text` ends, and how long its terminator is. */
function lineEnd(text: string): { at: number; length: number } | undefined {
  const cr = text.indexOf("\r");
  const lf = text.indexOf("\n");
  if (cr === -1 && lf === -1) return undefined;
  if (cr === -1 || (lf !== -1 && lf < cr)) return { at: lf, length: 1 };
  // A CR at the very end may be the first half of CRLF: wait for the next chunk.
  if (cr === text.length - 1) return undefined;
  return { at: cr, length: text[cr + 1] === "\n" ? 2 : 1 };
}
