/**
 * A platform that is down, then comes up: a loopback port in front of a fake. While the link is down,
 * every connection to it is cut the moment it is accepted (the client sees a network failure, as with a
 * platform it cannot reach); once it is up, every new connection is piped to the fake's port, byte for
 * byte (HTTP and WebSocket upgrades alike). Point the SDK's API URL at the link instead of the fake.
 */

import type { AddressInfo } from "node:net";
import { createServer, type Socket, connect as tcpConnect } from "node:net";
import { type Watchable, waitUntil } from "./wait.ts";

/** A switchable port in front of a fake (see {@link createLink}). */
export interface Link {
  /** The link's own port on 127.0.0.1. */
  readonly port: number;
  /** `http://127.0.0.1:<port><path>`: the fake's URL with the link's port (`link.url("/api")`). */
  url(path?: string): string;
  /** Whether new connections reach the fake. */
  readonly isUp: boolean;
  /** Connections cut while down, so far. */
  readonly refused: number;
  /** Connections piped to the fake, so far. */
  readonly piped: number;
  /** From now on, new connections go to `target` (the fake's port, or its URL). */
  up(target: number | string): void;
  /** From now on, new connections are cut; `cutOpen` also cuts the piped ones still open. */
  down(options?: { cutOpen?: boolean }): void;
  /** Resolves once `check` is truthy (re-checked on every connection), rejects after `timeoutMs`. */
  waitUntil<T>(check: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  /** Stops listening and cuts every connection. */
  close(): Promise<void>;
}

/** The port of a target given as a port or as a URL (`http://127.0.0.1:5123/api`). */
function portOf(target: number | string): number {
  const port = typeof target === "number" ? target : Number(new URL(target).port);
  if (!Number.isInteger(port) || port <= 0 || port > 65_535)
    throw new Error(`link: no port in ${JSON.stringify(target)}`);
  return port;
}

/**
 * Opens a link on a free loopback port: down, or up to `target` when given.
 *
 * @example
 * const link = await createLink(); // down: the SDK's calls fail as if the platform were unreachable
 * const tg = await createFakeTelegram();
 * const apiRoot = link.url(); // give this to the SDK instead of tg.apiRoot
 * // … later: the platform comes back
 * link.up(tg.apiRoot);
 */
export async function createLink(target?: number | string): Promise<Link> {
  let targetPort = target === undefined ? undefined : portOf(target);
  let refused = 0;
  let piped = 0;
  const open = new Set<Socket>();
  const state: Watchable = { listeners: new Set(), closed: false };
  const changed = () => {
    for (const listener of [...state.listeners]) listener();
  };

  const server = createServer((socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
    socket.on("error", () => undefined); // a client gone while piping
    if (targetPort === undefined) {
      refused++;
      socket.resetAndDestroy();
      changed();
      return;
    }
    piped++;
    const far = tcpConnect(targetPort, "127.0.0.1");
    open.add(far);
    far.once("close", () => open.delete(far));
    far.on("error", () => socket.destroy());
    socket.once("close", () => far.destroy());
    far.once("close", () => socket.destroy());
    socket.pipe(far);
    far.pipe(socket);
    changed();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    port,
    url: (path = "") => `http://127.0.0.1:${port}${path}`,
    get isUp() {
      return targetPort !== undefined;
    },
    get refused() {
      return refused;
    },
    get piped() {
      return piped;
    },
    up(next) {
      targetPort = portOf(next);
      changed();
    },
    down(options = {}) {
      targetPort = undefined;
      if (options.cutOpen) for (const socket of [...open]) socket.destroy();
      changed();
    },
    waitUntil: (check, timeoutMs = 10_000) => waitUntil(state, "link", check, timeoutMs),
    async close() {
      state.closed = true;
      targetPort = undefined;
      for (const socket of [...open]) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      changed();
    },
  };
}
