/**
 * A body over the limit is answered 413 in a way every client reads: the gateway keeps reading (and
 * dropping) what the client still sends, within a bound, before it closes the connection. Closing a
 * socket that still has unread bytes resets it, and a client busy writing its body then sees "broken
 * pipe" / ECONNRESET instead of the answer.
 */
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { createAskUser, createMemoryStore } from "@ask-user/core";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpServer, type HttpServer, type HttpServerOptions } from "../src/http/server.ts";

const servers: HttpServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve(options: Partial<HttpServerOptions> = {}): Promise<string> {
  const http = createHttpServer({
    broker: createAskUser({ store: createMemoryStore(), channels: [] }),
    token: undefined,
    defaultTarget: undefined,
    channels: new Set(),
    logger: pino({ level: "silent" }),
    ...options,
  });
  servers.push(http);
  await new Promise<void>((resolve) => http.server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
}

/** What a client ends up with: the status and body it read, or the error it got. */
interface Outcome {
  status?: number;
  body?: string;
  error?: string;
}

/**
 * A client that writes its whole request before it reads anything (Python's urllib, many scripts):
 * the head, then `size` bytes of body (chunked when the head says so), then it reads the answer.
 */
function writeThenRead(url: string, head: Record<string, string>, size: number): Promise<Outcome> {
  const { hostname, port, pathname } = new URL(url);
  const chunked = head["transfer-encoding"] === "chunked";
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ error: "timeout" });
    }, 20_000);
    const done = (outcome: Outcome) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    socket.on("error", (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
    const lines = Object.entries(head).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`POST ${pathname} HTTP/1.1\r\nhost: ${hostname}:${port}\r\n${lines.join("")}\r\n`);
    const piece = Buffer.alloc(64 * 1024, 0x20);
    const framed = chunked
      ? Buffer.concat([Buffer.from(`${piece.byteLength.toString(16)}\r\n`), piece, Buffer.from("\r\n")])
      : piece;
    let sent = 0;
    const write = () => {
      while (sent < size) {
        sent += piece.byteLength;
        if (!socket.write(framed)) return void socket.once("drain", write);
      }
      if (chunked) socket.write("0\r\n\r\n");
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (data: string) => {
        text += data;
      });
      socket.on("end", () => {
        const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(text)?.[1] ?? 0);
        done({ status, body: text.slice(text.indexOf("\r\n\r\n") + 4) });
      });
    };
    write();
  });
}

/** A POST of `size` bytes with node:http (which reads the answer while it writes). */
function post(url: string, size: number, headers: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers,
        agent: false,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        res.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const write = () => {
      while (sent < size) {
        sent += chunk.byteLength;
        if (!req.write(chunk)) return void req.once("drain", write);
      }
      req.end();
    };
    write();
  });
}

const TEN_MB = 10 * 1024 * 1024;
const tooLarge = { status: 413, body: expect.stringContaining('{"error":{"code":"body_too_large"') };
const json = { "content-type": "application/json" };

/** `times` requests one after the other (a loop, as a user's script would). */
async function repeat(times: number, send: () => Promise<Outcome>): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let i = 0; i < times; i++) outcomes.push(await send());
  return outcomes;
}

describe("a body over the limit", () => {
  it("is answered 413 body_too_large to a client that writes 10 MB with Connection: close before it reads, 10 times of 10", async () => {
    const url = await serve();
    const head = { ...json, "content-length": String(TEN_MB), connection: "close" };
    const outcomes = await repeat(10, () => writeThenRead(`${url}/v1/questions`, head, TEN_MB));
    expect(outcomes).toEqual(Array.from({ length: 10 }, () => tooLarge));
  });

  it("is answered 413 when it comes chunked (no Content-Length) and is read past the limit", async () => {
    const url = await serve();
    const head = { ...json, "transfer-encoding": "chunked", connection: "close" };
    const outcomes = await repeat(5, () => writeThenRead(`${url}/v1/questions`, head, TEN_MB));
    expect(outcomes).toEqual(Array.from({ length: 5 }, () => tooLarge));
  });

  it("is answered 413 to node:http, with Connection: close and on a kept-alive connection", async () => {
    const url = await serve();
    const close = { ...json, "content-length": String(TEN_MB), connection: "close" };
    const outcomes = await repeat(10, () => post(`${url}/v1/questions`, TEN_MB, close));
    expect(outcomes).toEqual(Array.from({ length: 10 }, () => tooLarge));
    const kept = await post(`${url}/v1/questions`, TEN_MB, { ...json, "content-length": String(TEN_MB) });
    expect(kept).toEqual(tooLarge);
  });

  it("is answered on /mcp and on a platform webhook path the same way", async () => {
    const url = await serve({ webhooks: new Map([["slack", async () => new Response("ok")]]) });
    const head = { ...json, "content-length": String(TEN_MB), connection: "close" };
    for (const path of ["/mcp", "/channels/slack/events"]) {
      expect(await writeThenRead(`${url}${path}`, head, TEN_MB), path).toEqual(tooLarge);
    }
  });

  it("is not the only refusal that waits for the body: a 415 and a 404 are read whole too", async () => {
    const url = await serve();
    const head = {
      "content-type": "text/plain",
      "content-length": String(4 * 1024 * 1024),
      connection: "close",
    };
    expect(await writeThenRead(`${url}/v1/questions`, head, 4 * 1024 * 1024)).toEqual({
      status: 415,
      body: expect.stringContaining('"code":"unsupported_media_type"'),
    });
    expect(await writeThenRead(`${url}/v1/nowhere`, head, 4 * 1024 * 1024)).toEqual({
      status: 404,
      body: expect.stringContaining('"code":"not_found"'),
    });
  });

  it("is answered before the gateway gives up on a body longer than its drain bound, and the connection ends", {
    timeout: 15_000,
  }, async () => {
    const url = await serve({ maxBodyBytes: 1024, maxDrainBytes: 256 * 1024 });
    const { port } = new URL(url);
    // A raw socket reads while it writes: it sees the 413 first, then the end of the connection once the
    // gateway has dropped its bound's worth (it never reads the promised 100 MB).
    const received = await new Promise<{ text: string; sent: number }>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1");
      let text = "";
      let sent = 0;
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const timer = setTimeout(() => reject(new Error(`no end after ${sent} bytes: ${text}`)), 10_000);
      socket.setEncoding("utf8");
      socket.on("data", (data: string) => {
        text += data;
      });
      const finish = () => {
        clearTimeout(timer);
        resolve({ text, sent });
      };
      socket.on("close", finish);
      socket.on("error", () => undefined);
      socket.write(
        "POST /v1/questions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
          `Content-Length: ${100 * 1024 * 1024}\r\n\r\n`,
      );
      const write = () => {
        while (!socket.destroyed && sent < 100 * 1024 * 1024) {
          sent += chunk.byteLength;
          if (!socket.write(chunk)) return void socket.once("drain", write);
        }
      };
      write();
    });
    expect(received.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(received.text).toMatch(/\r\nconnection: close\r\n/i);
    expect(received.text).toContain('{"error":{"code":"body_too_large"');
    expect(received.sent).toBeLessThan(100 * 1024 * 1024);
  });
});
