/**
 * The WebSocket gateway: HELLO, IDENTIFY → READY (+ GUILD_CREATE), heartbeat ACKs, RESUME with replay,
 * and dispatches with increasing sequence numbers per session. JSON only, no compression.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { INTENT_GUILDS, INTENT_MESSAGE_CONTENT } from "./limits.ts";
import { guildCreateJson, userJson } from "./payloads.ts";
import { notify, type Session, type State, snowflake } from "./state.ts";

/** Gateway opcodes the fake speaks. */
const OP = {
  dispatch: 0,
  heartbeat: 1,
  identify: 2,
  resume: 6,
  invalidSession: 9,
  hello: 10,
  ack: 11,
} as const;

/** Close codes: Discord's, for the errors the fake detects. */
export const CLOSE = {
  unknownError: 4000,
  decodeError: 4002,
  notAuthenticated: 4003,
  authenticationFailed: 4004,
  alreadyAuthenticated: 4005,
  invalidApiVersion: 4012,
  disallowedIntents: 4014,
} as const;

/** The gateway side of the fake. */
export interface Gateway {
  /** Takes over an HTTP upgrade request for `/gateway`. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every socket with `code`; sessions stay resumable. */
  drop(code: number): void;
  close(): Promise<void>;
}

function send(socket: WebSocket | undefined, payload: unknown): void {
  if (socket && socket.readyState === socket.OPEN) socket.send(JSON.stringify(payload));
}

/** Sends one dispatch on one session (logged for RESUME, sent at once when connected). */
export function dispatchTo(session: Session, t: string, d: unknown): void {
  const payload = { op: OP.dispatch, t, s: ++session.seq, d } as const;
  session.log.push(payload);
  send(session.socket, payload);
}

/** Sends a dispatch to every live session; `build` returns the session's `d`, or undefined to skip it. */
export function dispatch(state: State, t: string, build: (session: Session) => unknown): void {
  for (const session of state.sessions.values()) {
    if (!session.alive) continue;
    const d = build(session);
    if (d !== undefined) dispatchTo(session, t, d);
  }
}

function ready(state: State, session: Session, url: string): void {
  const guilds = [...state.guilds.values()];
  dispatchTo(session, "READY", {
    v: 10,
    user: { ...userJson(state.bot), verified: true, mfa_enabled: false, flags: 0 },
    guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
    session_id: session.id,
    resume_gateway_url: url,
    shard: [0, 1],
    application: { id: state.applicationId, flags: 0 },
    private_channels: [],
    relationships: [],
    presences: [],
    guild_join_requests: [],
    geo_ordered_rtc_regions: [],
    user_settings: {},
  });
  if ((session.intents & INTENT_GUILDS) === 0) return;
  for (const guild of guilds) dispatchTo(session, "GUILD_CREATE", guildCreateJson(state, guild));
}

/** Creates the gateway for `state`; `url` is what READY gives as `resume_gateway_url`. */
export function createGateway(state: State, url: () => string): Gateway {
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<WebSocket>();

  wss.on("connection", (socket: WebSocket, req: IncomingMessage) => {
    sockets.add(socket);
    let session: Session | undefined;
    const query = new URL(req.url ?? "/", "http://127.0.0.1").searchParams;
    if ((query.get("v") ?? "10") !== "10" || (query.get("encoding") ?? "json") !== "json") {
      socket.close(CLOSE.invalidApiVersion, "Invalid API version");
      return;
    }
    send(socket, { op: OP.hello, d: { heartbeat_interval: state.heartbeatIntervalMs } });

    socket.on("message", (raw) => {
      let payload: { op?: unknown; d?: unknown };
      try {
        payload = JSON.parse(String(raw)) as { op?: unknown; d?: unknown };
      } catch {
        socket.close(CLOSE.decodeError, "Error while decoding payload.");
        return;
      }
      const d = (payload.d ?? {}) as Record<string, unknown>;
      switch (payload.op) {
        case OP.heartbeat:
          if (session) session.heartbeats++;
          send(socket, { op: OP.ack });
          notify(state);
          return;
        case OP.identify: {
          if (session) return socket.close(CLOSE.alreadyAuthenticated, "Already authenticated.");
          if (d.token !== state.token)
            return socket.close(CLOSE.authenticationFailed, "Authentication failed.");
          const intents = typeof d.intents === "number" ? d.intents : 0;
          if ((intents & INTENT_MESSAGE_CONTENT) !== 0 && !state.privilegedIntents)
            return socket.close(CLOSE.disallowedIntents, "Disallowed intent(s).");
          session = {
            id: snowflake(state),
            intents,
            seq: 0,
            log: [],
            socket,
            alive: true,
            heartbeats: 0,
            resumes: 0,
          };
          state.sessions.set(session.id, session);
          ready(state, session, url());
          notify(state);
          return;
        }
        case OP.resume: {
          const known = state.sessions.get(String(d.session_id));
          if (!known?.alive || d.token !== state.token) {
            send(socket, { op: OP.invalidSession, d: false });
            return;
          }
          if (known.socket && known.socket !== socket) known.socket.terminate();
          session = known;
          known.socket = socket;
          known.resumes++;
          const from = typeof d.seq === "number" ? d.seq : 0;
          for (const missed of known.log) if (missed.s > from) send(socket, missed);
          dispatchTo(known, "RESUMED", {});
          notify(state);
          return;
        }
        default:
          if (!session) socket.close(CLOSE.notAuthenticated, "Not authenticated.");
      }
    });

    socket.on("close", (code) => {
      sockets.delete(socket);
      if (session?.socket === socket) {
        session.socket = undefined;
        // A normal close ends the session (as on Discord); others keep it resumable.
        if (code === 1000 || code === 1001) session.alive = false;
      }
      notify(state);
    });
  });

  return {
    handleUpgrade(req, socket, head) {
      const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
      if (path !== "/gateway" || state.closed) {
        socket.destroy();
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
    },
    drop(code) {
      for (const socket of sockets) socket.close(code, "Dropped by the fake");
    },
    async close() {
      for (const session of state.sessions.values()) session.alive = false;
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
