import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AskUserBroker, AskUserEvent } from "@ask-user/core";
import { type PublicQuestion, toPublic } from "../api.ts";

interface LoggedEvent {
  /** The counter part of the event id (`<epoch>-<seq>`). */
  seq: number;
  type: AskUserEvent["type"];
  question: PublicQuestion;
}

const KEEP_EVENTS = 1000;
const HEARTBEAT_MS = 15_000;

/**
 * Server-Sent Events of the broker's events with `Last-Event-ID` resume. Ids are `<epoch>-<seq>`: the
 * epoch is new for every stream (every process start, every instance), the sequence counts up within
 * it. The last 1000 events are kept; a client that comes back to the same epoch within them gets
 * exactly what it missed. Anyone else — an id from before a restart, from another instance, or too far
 * behind — gets `event: reset` (refetch the list), never a silent gap.
 */
export class EventStream {
  private readonly log: LoggedEvent[] = [];
  private nextSeq = 1;
  /** Names this stream's ids apart from those of other processes and instances. */
  private readonly epoch = randomBytes(6).toString("base64url").replace(/[-_]/g, "x");
  private readonly clients = new Set<ServerResponse>();
  private readonly unsubscribe: () => void;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(broker: AskUserBroker) {
    this.unsubscribe = broker.subscribe((event) => {
      const logged: LoggedEvent = { seq: this.nextSeq++, type: event.type, question: toPublic(event.record) };
      this.log.push(logged);
      if (this.log.length > KEEP_EVENTS) this.log.shift();
      for (const client of this.clients) this.write(client, logged);
    });
    this.heartbeat = setInterval(() => {
      for (const client of this.clients) client.write(": keep-alive\n\n");
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Serves one SSE client. */
  serve(req: IncomingMessage, res: ServerResponse, url: URL): void {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    res.write("retry: 2000\n\n");
    const lastText = req.headers["last-event-id"] ?? url.searchParams.get("lastEventId");
    if (typeof lastText === "string" && lastText !== "") {
      const match = /^([A-Za-z0-9]+)-(\d{1,15})$/.exec(lastText);
      const last = match?.[1] === this.epoch ? Number(match[2]) : undefined;
      const oldest = this.log[0]?.seq ?? this.nextSeq;
      if (last === undefined || last + 1 < oldest || last >= this.nextSeq) {
        res.write(
          `event: reset\ndata: {"reason":"cannot resume from ${match ? "that id" : "a foreign id"}: refetch /v1/questions"}\n\n`,
        );
      } else {
        for (const event of this.log) if (event.seq > last) this.write(res, event);
      }
    }
    this.clients.add(res);
    res.on("close", () => this.clients.delete(res));
  }

  private write(res: ServerResponse, event: LoggedEvent): void {
    const data = JSON.stringify({ type: event.type, question: event.question });
    res.write(`id: ${this.epoch}-${event.seq}\nevent: ${event.type}\ndata: ${data}\n\n`);
  }

  get size(): number {
    return this.clients.size;
  }

  /** Ends every stream (shutdown). */
  close(): void {
    this.unsubscribe();
    clearInterval(this.heartbeat);
    for (const client of this.clients) client.end();
    this.clients.clear();
  }
}
