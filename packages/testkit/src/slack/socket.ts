/**
 * The Socket Mode side: `apps.connections.open` hands out a one-time `ws://` URL; a connection gets
 * `hello`, then envelopes (`{ envelope_id, type, payload, accepts_response_payload }`) that the app acks
 * with `{ envelope_id, payload? }`.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { DELIVERY_TIMEOUT_MS } from "./limits.ts";
import { isObject } from "./params.ts";
import { notify, type Retry, type Route, type SocketLink, type State } from "./state.ts";
import type { Delivery } from "./types.ts";

/** Path of the Socket Mode endpoint on the fake's server. */
export const SOCKET_PATH = "/socket-mode";

/** Slack pings Socket Mode clients; the fake does so this often. */
const PING_INTERVAL_MS = 5000;

/** The Socket Mode server, sharing the fake's HTTP server. */
export interface SocketServer extends SocketLink {
  /** A fresh one-time URL for `apps.connections.open`. */
  issueUrl(): string;
  /** Takes an HTTP upgrade request; false when it is not for the Socket Mode path. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Open connections. */
  connections(): number;
  /** Sends `{ type: "disconnect", reason }` to every connection (Slack does so before recycling one). */
  disconnectAll(reason: string): void;
  close(): void;
}

interface PendingAck {
  resolve: (ack: { payload?: unknown } | undefined) => void;
}

/** One open connection: its number, whether it was told to leave, and the envelopes it owes an ack. */
interface Connection {
  ws: WebSocket;
  id: number;
  leaving: boolean;
  pending: Set<string>;
}

/** Creates the Socket Mode server over `state`. */
export function createSocketServer(state: State): SocketServer {
  const wss = new WebSocketServer({ noServer: true });
  const open: Connection[] = [];
  const tickets = new Set<string>();
  const pending = new Map<string, PendingAck>();
  let opened = 0;
  let turn = 0;

  const onMessage = (data: unknown) => {
    let message: unknown;
    try {
      message = JSON.parse(String(data));
    } catch {
      return;
    }
    if (!isObject(message) || typeof message.envelope_id !== "string") return;
    const waiter = pending.get(message.envelope_id);
    pending.delete(message.envelope_id);
    waiter?.resolve(message.payload === undefined ? {} : { payload: message.payload });
  };

  wss.on("connection", (ws: WebSocket) => {
    opened += 1;
    const connection: Connection = { ws, id: opened, leaving: false, pending: new Set() };
    open.push(connection);
    const ping = setInterval(() => ws.ping(), PING_INTERVAL_MS);
    ping.unref();
    ws.on("message", onMessage);
    ws.on("close", () => {
      clearInterval(ping);
      open.splice(open.indexOf(connection), 1);
      // Envelopes in flight on it are lost: Slack redelivers events that were not acked.
      for (const envelopeId of connection.pending) pending.get(envelopeId)?.resolve(undefined);
      notify(state);
    });
    ws.send(
      JSON.stringify({
        type: "hello",
        num_connections: open.length,
        debug_info: { host: "fake-slack", build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: state.app.appId },
      }),
    );
    notify(state);
  });

  /**
   * The connection for the next envelope: Slack hands each envelope to one open connection, spreading
   * them; the fake takes them in turn, skipping connections told to leave while others remain, and a
   * redelivery avoids the connection of the attempt before when there is another.
   */
  const pick = (avoid?: number): Connection | undefined => {
    const usable = open.filter((c) => c.ws.readyState === c.ws.OPEN);
    const staying = usable.filter((c) => !c.leaving);
    let candidates = staying.length > 0 ? staying : usable;
    const elsewhere = candidates.filter((c) => c.id !== avoid);
    if (elsewhere.length > 0) candidates = elsewhere;
    if (candidates.length === 0) return undefined;
    turn += 1;
    return candidates[turn % candidates.length];
  };

  return {
    isOpen: () => open.some((c) => c.ws.readyState === c.ws.OPEN),
    connections: () => open.length,
    issueUrl() {
      const ticket = randomUUID();
      tickets.add(ticket);
      return `${state.origin.replace(/^http/, "ws")}${SOCKET_PATH}?ticket=${ticket}&app_id=${state.app.appId}`;
    },
    handleUpgrade(req, socket, head) {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname !== SOCKET_PATH) return false;
      const ticket = url.searchParams.get("ticket") ?? "";
      if (!tickets.delete(ticket)) {
        socket.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n");
        return true;
      }
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
      return true;
    },
    send(type, payload, retry?: Retry, route?: Route) {
      const connection = pick(retry?.previous?.connection);
      if (route && connection) route.connection = connection.id;
      const envelopeId = randomUUID();
      const delivery: Delivery = {
        via: "socket",
        type: typeof payload.type === "string" ? payload.type : "unknown",
        request: payload,
        status: 0,
        body: null,
        ms: 0,
        envelopeId,
      };
      if (connection) delivery.connection = connection.id;
      if (retry) Object.assign(delivery, { retryNum: retry.num, retryReason: retry.reason });
      const started = performance.now();
      return new Promise<Delivery>((resolve) => {
        const finish = (ack: { payload?: unknown } | undefined, error?: string) => {
          clearTimeout(timer);
          pending.delete(envelopeId);
          connection?.pending.delete(envelopeId);
          delivery.ms = Math.round(performance.now() - started);
          if (ack) {
            delivery.status = 200;
            delivery.body = ack.payload ?? null;
            if (state.lostAcks > 0) {
              state.lostAcks -= 1;
              delivery.lost = true;
            }
          } else {
            delivery.error = error ?? "no ack";
          }
          state.deliveries.push(delivery);
          notify(state);
          resolve(delivery);
        };
        const timer = setTimeout(() => finish(undefined, "no ack in time"), DELIVERY_TIMEOUT_MS);
        if (!connection) {
          finish(undefined, "no Socket Mode connection");
          return;
        }
        pending.set(envelopeId, { resolve: (ack) => finish(ack, "connection closed") });
        connection.pending.add(envelopeId);
        connection.ws.send(
          JSON.stringify({
            envelope_id: envelopeId,
            type,
            payload,
            accepts_response_payload: type === "interactive",
            retry_attempt: retry?.num ?? 0,
            retry_reason: retry?.reason ?? "",
          }),
        );
      });
    },
    disconnectAll(reason) {
      for (const connection of open) {
        connection.leaving = true;
        connection.ws.send(JSON.stringify({ type: "disconnect", reason }));
      }
    },
    close() {
      for (const waiter of [...pending.values()]) waiter.resolve(undefined);
      pending.clear();
      for (const connection of [...open]) connection.ws.terminate();
      wss.close();
    },
  };
}
