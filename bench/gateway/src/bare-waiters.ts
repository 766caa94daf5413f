/**
 * The long-poll baseline, run as a child process so that its memory is measured alone: a bare
 * `node:http` server that holds `GET /wait/:id` open until `POST /wake/:id` arrives, then answers both
 * with a small JSON body. Prints `listening http://127.0.0.1:<port>` once it accepts connections.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

const held = new Map<string, ServerResponse>();

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

const server = createServer((req, res) => {
  const [, kind, id = ""] = (req.url ?? "").split("?")[0]?.split("/") ?? [];
  if (req.method === "GET" && kind === "wait") {
    held.set(id, res);
    res.on("close", () => {
      if (held.get(id) === res) held.delete(id);
    });
    return;
  }
  if (req.method === "POST" && kind === "wake") {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      const waiter = held.get(id);
      held.delete(id);
      if (waiter) json(waiter, 200, { id, status: "answered", answers: JSON.parse(body) });
      json(res, waiter ? 200 : 404, { id, woken: waiter !== undefined });
    });
    return;
  }
  json(res, 404, { error: "not_found" });
});

server.listen(0, "127.0.0.1", 511, () => {
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
