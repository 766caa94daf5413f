import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AskUserBroker, AskUserEvent } from "@ask-user/core";
import { pino } from "pino";
import { afterEach } from "vitest";
import { type RunningGateway, type StartOptions, startGateway } from "../src/gateway.ts";

const running: RunningGateway[] = [];
const dirs: string[] = [];
const servers: Server[] = [];

afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.close();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A broker that only has listeners (`subscribe`), for parts that only listen to one: the test sends
 * events to `listeners` itself.
 */
export function listenersOnlyBroker(): {
  broker: AskUserBroker;
  listeners: Set<(event: AskUserEvent) => void>;
} {
  const listeners = new Set<(event: AskUserEvent) => void>();
  const broker = {
    subscribe(listener: (event: AskUserEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as AskUserBroker;
  return { broker, listeners };
}

/** A fresh temporary folder, removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ask-user-gw-"));
  dirs.push(dir);
  return dir;
}

/** Starts a gateway on a free loopback port with a fresh database; closed after the test. */
export async function testGateway(env: Record<string, string> = {}, options: Omit<StartOptions, "env"> = {}) {
  const gateway = await startGateway({
    env: { ASK_USER_PORT: "0", ASK_USER_DB: join(tempDir(), "ask-user.db"), ...env },
    logger: pino({ level: "silent" }),
    ...options,
  });
  running.push(gateway);
  return gateway;
}

/** JSON request helper: returns status and parsed body (typed loosely: tests assert on its shape). */
export async function call(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions
): Promise<{ status: number; body: any }> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

export const deployInput = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging (Recommended)", description: "Safe" }, { label: "Production" }],
    },
  ],
};

/**
 * The text channel's far end (a user's chat bridge): records the texts the gateway POSTs to the text
 * webhook and says each was sent. Give `url` to `ASK_USER_TEXT_WEBHOOK_URL`; closed after the test.
 */
export async function textWebhook(): Promise<{ url: string; texts: string[] }> {
  const texts: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      texts.push((JSON.parse(body) as { text: string }).text);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ messageId: `m${texts.length}` }));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, texts };
}

/**
 * Serves an MCP handler on 127.0.0.1 (every request to `listener`, by default the handler itself) and
 * registers its shutdown in `cleanups`: the handler closed first, then every connection. The `/mcp` URL.
 */
export async function listenMcp(
  mcp: { handle(req: IncomingMessage, res: ServerResponse): Promise<void>; close(): Promise<void> },
  cleanups: Array<() => Promise<void>>,
  listener: (req: IncomingMessage, res: ServerResponse) => void = (req, res) => void mcp.handle(req, res),
): Promise<URL> {
  const http = createServer(listener);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    await mcp.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  return new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
}
