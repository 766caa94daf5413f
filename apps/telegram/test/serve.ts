/**
 * The host's side in tests: a node:http server on 127.0.0.1 in front of a web-standard handler (what the
 * gateway and the standalone runner do with `handleWebhook`). Unknown paths get 404.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A listening test server. */
export interface Served {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/** Serves `handler` at `paths` on a free port (or `port`). */
export async function serve(
  handler: (request: Request) => Promise<Response>,
  paths: readonly string[],
  port = 0,
): Promise<Served> {
  let origin = "http://127.0.0.1";
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", origin);
    if (!paths.includes(url.pathname)) return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method ?? "GET";
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers))
      if (typeof value === "string") headers.set(key, value);
    const init: RequestInit = { method, headers };
    if (method !== "GET" && method !== "HEAD") init.body = Buffer.concat(chunks);
    const response = await handler(new Request(url, init));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    port: (server.address() as AddressInfo).port,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A free port on 127.0.0.1 (listened on and closed at once). */
export async function freePort(): Promise<number> {
  const probe = await serve(async () => new Response(null), []);
  await probe.close();
  return probe.port;
}
