import type { IncomingMessage, ServerResponse } from "node:http";
import type { AskUserBroker, AskUserEvent } from "@ask-user/core";
import { type PublicQuestion, toPublic } from "../api.ts";

interface LoggedEvent {
  id: number;
  type: AskUserEvent["type"];
  question: PublicQuestion;
}

const KEEP_EVENTS = 1000;
const HEARTBEAT_MS = 15_000;

/**
 * Server-Sent Events of the broker's events with `Last-Event-ID` resume: the last 1000 events are kept;
 * a client that comes back within them gets exactly what it missed, an older one gets `event: reset`
 * (refetch the list).
 */
export class EventStream {
  private readonly log: LoggedEvent[] = [];
  private nextId = 1;
  private readonly clients = new Set<ServerResponse>();
  private readonly unsubscribe: () => void;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(broker: AskUserBroker) {
    this.unsubscribe = broker.subscribe((event) => {
      const logged: LoggedEvent = { id: this.nextId++, type: event.type, question: toPublic(event.record) };
      this.log.push(logged);
      if (this.log.length > KEEP_EVENTS) this.log.shift();
      for (const client of this.clients) write(client, logged);
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
    const last = typeof lastText === "string" && /^\d+$/.test(lastText) ? Number(lastText) : undefined;
    if (last !== undefined) {
      const oldest = this.log[0]?.id ?? this.nextId;
      if (last + 1 < oldest) {
        res.write(`event: reset\ndata: {"reason":"too far behind: refetch /v1/questions"}\n\n`);
      }
      for (const event of this.log) if (event.id > last) write(res, event);
    }
    this.clients.add(res);
    res.on("close", () => this.clients.delete(res));
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

function write(res: ServerResponse, event: LoggedEvent): void {
  res.write(
    `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify({ type: event.type, question: event.question })}\n\n`,
  );
}
