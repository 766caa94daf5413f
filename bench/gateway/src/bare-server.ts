/**
 * The bare `node:http` server of the HTTP section, as a process of its own (the "from outside"
 * figure): reads the body, answers a small JSON object, and prints its URL the way `ask-user start`
 * prints its banner.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => {
    body += chunk;
  });
  req.on("end", () => {
    const text = JSON.stringify({ id: "x", echo: body.length });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  });
});
server.listen(0, "127.0.0.1", () => {
  console.log(`HTTP API  http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
});
