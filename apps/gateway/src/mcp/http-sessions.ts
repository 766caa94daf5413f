import { randomUUID } from "node:crypto";
import type { Call } from "./http-serve.ts";

/** An open session: all the state a client costs while it waits (no server object per session). */
export interface Session {
  id: string;
  protocolVersion: string;
  /** When the session last had a request or finished one (epoch ms). */
  lastSeen: number;
  /** Requests in flight (each with its JSON-RPC id and what cancels it); undefined when none. */
  calls: Call[] | undefined;
}

/** Measured gateway memory of an idle session record (bench/gateway/src/mcp-waiters.ts). */
export const SESSION_BYTES = 1024;
/**
 * Gateway memory of a call in flight, resident: its socket, request, response, wait and question
 * (measured 17.5 KB at 10,000 waiting, bench/gateway/src/mcp-waiters.ts; rounded up for garbage not yet
 * collected between two GCs).
 */
export const CALL_BYTES = 20 * 1024;

const IDLE_SWEEP_MS = 60_000;

/** The bounds of {@link createSessionTable}. */
export interface SessionBounds {
  /** What sessions and calls in flight may take, by their measured cost. */
  memoryBudgetBytes: number;
  /** The most sessions open at once. */
  maxSessions: number;
  /** A session with nothing in flight and no request for this long is closed. */
  idleSessionMs: number;
}

/**
 * The open MCP sessions of the HTTP router, least recently used first, within their bounds: a new
 * session or call that does not fit closes idle sessions (LRU first, never one with a call in flight),
 * and a timer closes sessions idle for `idleSessionMs`.
 */
export interface SessionTable {
  readonly size: number;
  get(id: string): Session | undefined;
  /**
   * Makes room for one more session (closing idle ones for it); when there is none, says why: the
   * number of sessions or the memory budget.
   */
  refusesSession(): string | undefined;
  /** Opens a session (after {@link refusesSession} made room). */
  open(protocolVersion: string): Session;
  /** Marks a session used now (most recently used). */
  touch(session: Session): void;
  /** Whether `count` more calls fit (closing idle sessions for them). */
  roomForCalls(count: number): boolean;
  /** Counts `count` calls in flight until the returned function is called. */
  startCalls(session: Session, count: number): () => void;
  /** Resolves once no call is in flight (at once when none is). */
  noCalls(): Promise<void>;
  /** Closes a session: its calls in flight are aborted with `reason`. */
  end(session: Session, reason: string): void;
  /** Closes every session (their calls aborted with `reason`) and stops the idle timer. */
  close(reason: string): void;
}

export function createSessionTable(bounds: SessionBounds): SessionTable {
  const { memoryBudgetBytes, maxSessions, idleSessionMs } = bounds;
  const sessions = new Map<string, Session>();
  let calls = 0;
  /** Told when `calls` comes down to 0. */
  let onNoCalls: (() => void) | undefined;

  const used = (extraSessions: number, extraCalls: number) =>
    (sessions.size + extraSessions) * SESSION_BYTES + (calls + extraCalls) * CALL_BYTES;

  /** Makes room for `sessionsNeeded` sessions and `callsNeeded` calls: closes idle sessions, LRU first. */
  const makeRoom = (sessionsNeeded: number, callsNeeded: number): boolean => {
    const fits = () =>
      used(sessionsNeeded, callsNeeded) <= memoryBudgetBytes && sessions.size + sessionsNeeded <= maxSessions;
    for (const session of sessions.values()) {
      if (fits()) break;
      if (!session.calls?.length) sessions.delete(session.id);
    }
    return fits();
  };

  const end = (session: Session, reason: string) => {
    sessions.delete(session.id);
    for (const call of [...(session.calls ?? [])]) call.abort(reason);
  };

  const sweep = setInterval(
    () => {
      const before = Date.now() - idleSessionMs;
      for (const session of sessions.values()) {
        if (!session.calls?.length && session.lastSeen < before) sessions.delete(session.id);
      }
    },
    Math.min(IDLE_SWEEP_MS, idleSessionMs),
  );
  sweep.unref();

  return {
    get size() {
      return sessions.size;
    },
    get: (id) => sessions.get(id),
    refusesSession() {
      if (makeRoom(1, 0)) return undefined;
      return sessions.size >= maxSessions ? `${maxSessions} sessions` : "its memory budget";
    },
    open(protocolVersion) {
      const session: Session = { id: randomUUID(), protocolVersion, lastSeen: Date.now(), calls: undefined };
      sessions.set(session.id, session);
      return session;
    },
    touch(session) {
      sessions.delete(session.id);
      sessions.set(session.id, session);
      session.lastSeen = Date.now();
    },
    roomForCalls: (count) => makeRoom(0, count),
    startCalls(session, count) {
      calls += count;
      return () => {
        calls -= count;
        session.lastSeen = Date.now();
        if (calls === 0) onNoCalls?.();
      };
    },
    noCalls() {
      if (calls === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const before = onNoCalls;
        onNoCalls = () => {
          onNoCalls = undefined;
          before?.();
          resolve();
        };
      });
    },
    end,
    close(reason) {
      clearInterval(sweep);
      for (const session of [...sessions.values()]) end(session, reason);
    },
  };
}
