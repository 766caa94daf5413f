/**
 * `GET /metrics`: the Prometheus text format, behind the token, with the gateway's own registry —
 * questions created / ended / pending by channel, time to answer, deliveries and delivery failures,
 * open SSE streams, and Node's default metrics (event-loop lag).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ANSWER_BUCKETS } from "../src/metrics.ts";
import { call, deployInput, testGateway } from "./harness.ts";

const TOKEN = "metrics-test-token";
const auth = { authorization: `Bearer ${TOKEN}` };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A text webhook that delivers to every conversation but `broken`, which it answers with a 500. */
async function webhook(): Promise<string> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const { conversation } = JSON.parse(body) as { conversation: string };
      res.writeHead(conversation === "broken" ? 500 : 200, { "content-type": "application/json" });
      res.end(JSON.stringify({ messageId: `m-${conversation}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

async function scrape(url: string): Promise<string> {
  const response = await fetch(`${url}/metrics`, { headers: auth, signal: AbortSignal.timeout(15_000) });
  expect(response.status).toBe(200);
  return response.text();
}

/** The value of one sample line, `name{labels} value`; undefined when the line is missing. */
function sample(body: string, series: string): number | undefined {
  const line = body.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Scrapes until `series` has `value` (bounded): the SSE stream opens and closes asynchronously. */
async function waitForSample(url: string, series: string, value: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (sample(await scrape(url), series) === value) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${series} never became ${value}`);
}

describe("GET /metrics", () => {
  it("needs the token and answers in the Prometheus text format", async () => {
    const gw = await testGateway({ ASK_USER_TOKEN: TOKEN });
    const anonymous = await call(`${gw.url}/metrics`, "GET");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe("unauthorized");
    const wrong = await call(`${gw.url}/metrics`, "GET", undefined, { authorization: "Bearer nope" });
    expect(wrong.status).toBe(401);
    const response = await fetch(`${gw.url}/metrics`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = await response.text();
    expect(body).toContain("# TYPE ask_user_questions_created_total counter");
    expect(body).toContain("# TYPE ask_user_answer_seconds histogram");
    expect(body).toContain("# TYPE nodejs_eventloop_lag_seconds gauge");
    expect(sample(body, "ask_user_sse_streams")).toBe(0);
    expect(sample(body, "ask_user_mcp_sessions")).toBe(0);

    // An MCP client that initialises a session is counted while it is open.
    const opened = await fetch(`${gw.url}/mcp`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });
    expect(opened.status).toBe(200);
    await opened.text();
    expect(sample(await scrape(gw.url), "ask_user_mcp_sessions")).toBe(1);
  });

  it("counts questions created, answered, undeliverable and pending, the time to answer and deliveries", async () => {
    const gw = await testGateway({ ASK_USER_TOKEN: TOKEN, ASK_USER_TEXT_WEBHOOK_URL: await webhook() });
    const post = (body: unknown) => call(`${gw.url}/v1/questions`, "POST", body, auth);

    const asked = await post({ ...deployInput, target: "text:alice" });
    expect(asked.body.status).toBe("pending");
    const answered = await call(
      `${gw.url}/v1/questions/${asked.body.id}/answer`,
      "POST",
      { answers: { deploy_target: ["Production"] } },
      auth,
    );
    expect(answered.body.status).toBe("answered");
    const failed = await post({ ...deployInput, target: "text:broken" });
    expect(failed.body.status).toBe("undeliverable");
    expect((await post({ ...deployInput, target: "text:bob" })).body.status).toBe("pending");
    expect((await post(deployInput)).body.status).toBe("pending"); // no target: an operator surface answers

    const body = await scrape(gw.url);
    expect(sample(body, 'ask_user_questions_created_total{channel="text"}')).toBe(3);
    expect(sample(body, 'ask_user_questions_created_total{channel="none"}')).toBe(1);
    expect(sample(body, 'ask_user_questions_ended_total{status="answered",channel="text"}')).toBe(1);
    expect(sample(body, 'ask_user_questions_ended_total{status="undeliverable",channel="text"}')).toBe(1);
    expect(sample(body, 'ask_user_questions_pending{channel="text"}')).toBe(1);
    expect(sample(body, 'ask_user_questions_pending{channel="none"}')).toBe(1);
    // alice's and bob's prompts went out; the broken one is a failure with its error's class name.
    expect(sample(body, 'ask_user_deliveries_total{channel="text"}')).toBe(2);
    expect(sample(body, 'ask_user_delivery_failures_total{channel="text",reason="ChannelError"}')).toBe(1);

    const seconds = (answered.body.resolvedAt - answered.body.createdAt) / 1000;
    expect(sample(body, 'ask_user_answer_seconds_count{channel="text"}')).toBe(1);
    expect(sample(body, 'ask_user_answer_seconds_sum{channel="text"}')).toBeCloseTo(seconds, 6);
    for (const le of ANSWER_BUCKETS) {
      const inBucket = sample(body, `ask_user_answer_seconds_bucket{le="${le}",channel="text"}`);
      expect(inBucket).toBe(seconds <= le ? 1 : 0);
    }
    expect(sample(body, 'ask_user_answer_seconds_bucket{le="+Inf",channel="text"}')).toBe(1);
    expect(ANSWER_BUCKETS.at(-1)).toBe(86_400);
    expect(sample(body, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
  });

  it("shows open SSE streams, and keeps each gateway's counts in its own registry", async () => {
    const first = await testGateway({ ASK_USER_TOKEN: TOKEN });
    const second = await testGateway({ ASK_USER_TOKEN: TOKEN });
    await call(`${first.url}/v1/questions`, "POST", deployInput, auth);

    const stream = new AbortController();
    const events = await fetch(`${first.url}/v1/events`, { headers: auth, signal: stream.signal });
    expect(events.status).toBe(200);
    await waitForSample(first.url, "ask_user_sse_streams", 1);
    stream.abort();
    await events.body?.cancel().catch(() => undefined);
    await waitForSample(first.url, "ask_user_sse_streams", 0);

    expect(sample(await scrape(first.url), 'ask_user_questions_created_total{channel="none"}')).toBe(1);
    const other = await scrape(second.url);
    expect(sample(other, 'ask_user_questions_created_total{channel="none"}')).toBeUndefined();
    expect(sample(other, "ask_user_sse_streams")).toBe(0);
  });
});
