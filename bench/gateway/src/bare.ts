/**
 * The bare `node:http` server's handler, the HTTP section's baseline: in the bench's process
 * (`http.ts`) and as a process of its own (`bare-server.ts`). Only node:http, so that the bare process
 * loads nothing else.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** The bare server's every request: reads the body, answers a small JSON object. */
export function bareHandler(req: IncomingMessage, res: ServerResponse): void {
  let body = "";
  req.on("data", (chunk) => {
    body += chunk;
  });
  req.on("end", () => {
    const text = JSON.stringify({ id: "x", echo: body.length });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  });
}
