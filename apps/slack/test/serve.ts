/**
 * Serves a web-standard handler on 127.0.0.1:0 the way a host does (the gateway runs `@hono/node-server`
 * too): only `paths`, 404 elsewhere. Closed after the test by whoever calls `close`.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";

/** A served handler. */
export interface Served {
  port: number;
  /** `http://127.0.0.1:<port>` + the first path. */
  url: string;
  close(): Promise<void>;
}

export async function serveHandler(
  handler: (request: Request) => Promise<Response>,
  paths: readonly string[],
): Promise<Served> {
  const server = await new Promise<Server>((resolve) => {
    const started = serve(
      {
        fetch: (request) =>
          paths.includes(new URL(request.url).pathname)
            ? handler(request)
            : new Response(null, { status: 404 }),
        port: 0,
        hostname: "127.0.0.1",
      },
      () => resolve(started as Server),
    );
  });
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { port, url: `http://127.0.0.1:${port}${paths[0] ?? "/"}`, close };
}
