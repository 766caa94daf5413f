import { randomBytes } from "node:crypto";
import type { AskUserBroker, AskUserEvent } from "@ask-user/core";
import { toPublicQuestion } from "@ask-user/core";
import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";
import { type SSEMessage, streamSSE } from "hono/streaming";
import type { PublicQuestion } from "../api.ts";
import type { GatewayEnv } from "./env.ts";

interface LoggedEvent {
  /** The counter part of the event id (`<epoch>-<seq>`). */
  seq: number;
  type: AskUserEvent["type"];
  /** The record as the event carried it (the broker's copy, which nothing changes). */
  record: AskUserEvent["record"];
  /** Its message, made when a client first needs it and shared by every client (serialised once). */
  message?: SSEMessage;
}

/** What a client's stream writes next: an event, or the keep-alive comment. */
type Item = SSEMessage | typeof KEEP_ALIVE;

const KEEP_ALIVE = ": keep-alive\n\n";
const KEEP_EVENTS = 1000;
/** Events queued for one client at most; a client that falls further behind is cut off (it resumes). */
const MAX_QUEUED = KEEP_EVENTS;
const HEARTBEAT_MS = 15_000;

/** One SSE client: its queue, drained by its stream with awaited writes. */
class Client {
  private readonly queue: Item[] = [];
  private wake: (() => void) | undefined;
  closed = false;
  /** Ends the response at once, even while a write waits for a client that stopped reading. */
  cutOff: () => void = () => undefined;

  push(item: Item): void {
    if (this.closed) return;
    if (this.queue.length >= MAX_QUEUED) {
      this.close();
      this.cutOff();
      return;
    }
    this.queue.push(item);
    this.wake?.();
  }

  get idle(): boolean {
    return this.queue.length === 0;
  }

  /** The next item, waiting for one; undefined once closed. */
  async next(): Promise<Item | undefined> {
    while (!this.closed) {
      const item = this.queue.shift();
      if (item !== undefined) return item;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
    return undefined;
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }
}

/**
 * Server-Sent Events of the broker's events with `Last-Event-ID` resume. Ids are `<epoch>-<seq>`: the
 * epoch is new for every stream (every process start, every instance), the sequence counts up within
 * it. The last 1000 events are kept; a client that comes back to the same epoch within them gets
 * exactly what it missed. Anyone else — an id from before a restart, from another instance, or too far
 * behind — gets `event: reset` (refetch the list), never a silent gap.
 *
 * Writes are awaited (Hono's `streamSSE` over the node server, which waits for `drain`): a client that
 * reads slowly gets its events queued, and one that falls 1000 events behind is cut off rather than
 * buffered without bound; it reconnects and resumes (or is told to reset).
 *
 * The stream listens to the broker only while someone could use what it hears: from the first client
 * on, and after the last one left until 1000 more events have passed (beyond them no id it was given
 * can resume). Otherwise an event costs it nothing — nothing logged, no record kept alive — and an id
 * from before such a pause gets `event: reset`, as it would after the 1000 events.
 */
export class EventStream {
  private readonly log: LoggedEvent[] = [];
  private nextSeq = 1;
  /** Names this stream's ids apart from those of other processes and instances. */
  private readonly epoch = randomBytes(6).toString("base64url").replace(/[-_]/g, "x");
  private readonly clients = new Set<Client>();
  /** Set while the stream listens to the broker. */
  private unsubscribe: (() => void) | undefined;
  /** Events heard since the last client left: past {@link KEEP_EVENTS}, none of them can resume. */
  private sinceLastLeft = 0;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly broker: AskUserBroker) {
    this.heartbeat = setInterval(() => {
      for (const client of this.clients) if (client.idle) client.push(KEEP_ALIVE);
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Each broker event while listening: logged, and queued for every client. */
  private readonly onEvent = (event: AskUserEvent): void => {
    // Nothing is serialised until a client needs it.
    const logged: LoggedEvent = { seq: this.nextSeq++, type: event.type, record: event.record };
    this.log.push(logged);
    if (this.log.length > KEEP_EVENTS) this.log.shift();
    if (this.clients.size > 0) {
      for (const client of this.clients) client.push(this.message(logged));
    } else if (++this.sinceLastLeft > KEEP_EVENTS) this.stopListening();
  };

  /**
   * Stops listening (no client for 1000 events): the log goes, and the sequence skips one, so that
   * every id given out so far is older than the log and gets `event: reset`.
   */
  private stopListening(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.log.length = 0;
    this.nextSeq++;
  }

  /** Whether the stream listens to the broker now. */
  get listening(): boolean {
    return this.unsubscribe !== undefined;
  }

  /** `GET /v1/events`: one SSE client, resuming after `Last-Event-ID` (or `?lastEventId=`). */
  serve(c: Context<GatewayEnv>): Response {
    if (c.req.method === "HEAD") {
      return c.body(null, 200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    }
    const client = new Client();
    // The replay is queued in the same tick as the client joins: no event falls between the two.
    const lastText = c.req.header("last-event-id") ?? c.req.query("lastEventId");
    if (lastText !== undefined && lastText !== "") {
      const match = /^([A-Za-z0-9]+)-(\d{1,15})$/.exec(lastText);
      const last = match?.[1] === this.epoch ? Number(match[2]) : undefined;
      const oldest = this.log[0]?.seq ?? this.nextSeq;
      if (last === undefined || last + 1 < oldest || last >= this.nextSeq) {
        const reason = `cannot resume from ${match ? "that id" : "a foreign id"}: refetch /v1/questions`;
        client.push({ event: "reset", data: JSON.stringify({ reason }) });
      } else {
        for (const event of this.log) if (event.seq > last) client.push(this.message(event));
      }
    }
    this.clients.add(client);
    this.unsubscribe ??= this.broker.subscribe(this.onEvent);
    c.header("x-accel-buffering", "no");
    return streamSSE(c, async (stream) => {
      const stop = () => client.close();
      stream.onAbort(stop);
      c.req.raw.signal.addEventListener("abort", stop, { once: true });
      client.cutOff = () => {
        stream.abort();
        (c.env as Partial<HttpBindings> | undefined)?.outgoing?.destroy();
      };
      try {
        await stream.write("retry: 2000\n\n");
        for (let item = await client.next(); item !== undefined; item = await client.next()) {
          if (item === KEEP_ALIVE) await stream.write(item);
          else await stream.writeSSE(item);
          if (stream.aborted) break;
        }
      } finally {
        client.close();
        if (this.clients.delete(client) && this.clients.size === 0) this.sinceLastLeft = 0;
      }
    });
  }

  private message(event: LoggedEvent): SSEMessage {
    if (event.message) return event.message;
    const question: PublicQuestion = toPublicQuestion(event.record);
    event.message = {
      id: `${this.epoch}-${event.seq}`,
      event: event.type,
      data: JSON.stringify({ type: event.type, question }),
    };
    return event.message;
  }

  /** Open streams. */
  get size(): number {
    return this.clients.size;
  }

  /** Ends every stream (shutdown). */
  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearInterval(this.heartbeat);
    for (const client of this.clients) client.close();
    this.clients.clear();
  }
}
