/**
 * Shared harness for the fake Slack's own tests: a fake per test and a minimal Web API caller that
 * speaks the WebClient's wire format (form-urlencoded, nested fields as JSON strings, Bearer token).
 * The end-to-end tests with the real Bolt live in apps/slack.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import { createFakeSlack, type FakeSlack, type FakeSlackOptions } from "../src/slack/index.ts";

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export async function fakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const slack = await createFakeSlack(options);
  cleanups.push(() => slack.close());
  return slack;
}

/** A Web API answer: HTTP status, headers and JSON body. */
export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** Calls a Web API method as the WebClient does. */
export async function api(
  slack: FakeSlack,
  method: string,
  params: Record<string, unknown> = {},
  token: string | null = slack.botToken,
): Promise<Answer> {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    form.set(
      key,
      typeof value === "string" || typeof value === "number" || typeof value === "boolean"
        ? String(value)
        : JSON.stringify(value),
    );
  }
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${slack.apiUrl}${method}`, {
    method: "POST",
    headers,
    body: form.toString(),
  });
  const text = await response.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { raw: text };
  }
  return { status: response.status, headers: response.headers, body };
}

/** A request the stand-in app received. */
export interface Received {
  headers: IncomingMessage["headers"];
  body: string;
}

/** A stand-in endpoint that answers with `answer(body)` (JSON), or 200 with no body; closed after the test. */
async function standIn(answer: (body: string) => unknown): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ headers: req.headers, body });
      const reply = answer(body);
      if (reply === undefined) res.writeHead(200).end();
      else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`, received };
}

/**
 * A stand-in for Bolt's HTTP endpoint: records each request and answers with `answer(body)` (JSON),
 * or 200 with no body.
 */
export async function appEndpoint(
  slack: FakeSlack,
  answer: (body: string) => unknown = () => undefined,
): Promise<Received[]> {
  const { url, received } = await standIn(answer);
  slack.setRequestUrl(url);
  return received;
}

/** `count` stand-in endpoints behind the fake's load balancer (several instances in HTTP mode). */
export async function appEndpoints(slack: FakeSlack, count: number): Promise<Received[][]> {
  const endpoints = await Promise.all(Array.from({ length: count }, () => standIn(() => undefined)));
  slack.setRequestUrl(endpoints.map((e) => e.url));
  return endpoints.map((e) => e.received);
}

/** How the scripted stand-in answers one request. */
export interface ScriptedAnswer {
  status?: number;
  /** Answer only after this long. */
  delayMs?: number;
}

/**
 * A stand-in for Bolt's HTTP endpoint that answers the n-th request (from 0) as `script` says: a status
 * (default 200, no body) after a delay.
 */
export async function scriptedEndpoint(
  slack: FakeSlack,
  script: (index: number) => ScriptedAnswer,
): Promise<Received[]> {
  const received: Received[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const answer = script(received.length);
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) res.writeHead(answer.status ?? 200).end();
      }, answer.delayMs ?? 0);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  slack.setRequestUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`);
  return received;
}

/** The JSON inside an interactivity body (`payload=<urlencoded JSON>`). */
export function payloadOf(body: string): Record<string, unknown> {
  return JSON.parse(new URLSearchParams(body).get("payload") ?? "{}") as Record<string, unknown>;
}

/** A button element. */
export function button(text: string, actionId: string, value?: string): Record<string, unknown> {
  return {
    type: "button",
    text: { type: "plain_text", text },
    action_id: actionId,
    ...(value === undefined ? {} : { value }),
  };
}
