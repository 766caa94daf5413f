/**
 * The bytes of the fast lane's response head: the JSON headers in a fixed order, the body's length, then
 * node's own lines — for a success and for an error the route answers.
 */
import { type AddressInfo, connect } from "node:net";
import { createAskUser, createMemoryStore } from "@ask-user/core";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpServer } from "../src/http/server.ts";
import { deployInput } from "./harness.ts";

const TOKEN = "fast-lane-head-token-0123456789";
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Sends `text` on a fresh connection; resolves with the head (Date masked) and the body. */
function exchange(port: number, text: string): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.setEncoding("latin1");
    socket.on("error", reject);
    socket.on("data", (chunk) => {
      received += chunk;
      const end = received.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length: (\d+)\r\n/i.exec(received.slice(0, end))?.[1];
      if (end < 0 || length === undefined || received.length < end + 4 + Number(length)) return;
      socket.destroy();
      const head = received.slice(0, end).replace(/\r\nDate: [^\r]+/, "\r\nDate: _");
      resolve({ head, body: received.slice(end + 4) });
    });
    socket.write(text);
  });
}

describe("the fast lane's response head", () => {
  it("is the JSON headers, the length, then node's lines", async () => {
    const broker = createAskUser({ store: createMemoryStore(), channels: [] });
    const http = createHttpServer({
      broker,
      token: TOKEN,
      defaultTarget: undefined,
      channels: new Set(),
      logger: pino({ level: "silent" }),
    });
    closers.push(() => http.close());
    await new Promise<void>((resolve) => http.server.listen(0, "127.0.0.1", resolve));
    const { port } = http.server.address() as AddressInfo;
    const body = JSON.stringify(deployInput);
    const post = (token: string) =>
      `POST /v1/questions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

    // Every head the lane writes, success or a refusal of its own: these lines, in this order.
    const laneHead = (status: string, body: string) =>
      [
        `HTTP/1.1 ${status}`,
        "content-type: application/json; charset=utf-8",
        "cache-control: no-store",
        `content-length: ${Buffer.byteLength(body)}`,
        "Date: _",
        "Connection: keep-alive",
        "Keep-Alive: timeout=5",
      ].join("\r\n");

    const created = await exchange(port, post(TOKEN));
    expect(created.head).toBe(laneHead("201 Created", created.body));
    expect(JSON.parse(created.body)).toMatchObject({ status: "pending" });

    // An error the lane itself answers (the route refuses): the same lines as a success.
    const unknown = await exchange(
      port,
      `GET /v1/questions/nope HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`,
    );
    expect(unknown.head).toBe(laneHead("404 Not Found", unknown.body));
  });
});
