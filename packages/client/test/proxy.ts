import { connect, createServer, type Server, type Socket } from "node:net";
import { afterEach } from "vitest";

const proxies: Array<{ server: Server; sockets: Set<Socket> }> = [];
afterEach(async () => {
  for (const { server, sockets } of proxies.splice(0)) {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});

/**
 * A TCP proxy on 127.0.0.1 in front of a gateway, to drop the network under a client: `cut()` resets
 * every open connection (as a dropped link does), `down(true)` refuses new ones until `down(false)`.
 */
export async function tcpProxy(targetUrl: string) {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  let refusing = false;
  const server = createServer((client) => {
    if (refusing) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxies.push({ server, sockets });
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("no address");
  return {
    url: `http://127.0.0.1:${address.port}`,
    /** Resets every open connection. */
    cut(): void {
      for (const socket of sockets) socket.resetAndDestroy();
    },
    /** While down, new connections are reset at once. */
    down(value: boolean): void {
      refusing = value;
    },
    /** Connections open now. */
    get open(): number {
      return sockets.size / 2;
    },
  };
}
