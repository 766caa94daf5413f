/** The HTTP side: a node:http server on 127.0.0.1 with the Web API, `response_url`s and Socket Mode. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { FakeSlack, FakeSlackOptions } from "./fake.ts";
import { createHolds } from "./hold.ts";
import { DEFAULT_WAIT_MS } from "./limits.ts";
import { postToResponseUrl } from "./messages.ts";
import { type ApiAnswer, invoke, recordCall } from "./methods.ts";
import { ApiError, type Params, parseBody } from "./params.ts";
import { createSocketServer } from "./socket.ts";
import { createState, dmId, findMessage, notify, waitUntil } from "./state.ts";
import { messageText } from "./text.ts";
import { deliver, deliverHttp } from "./transport.ts";
import { createFakeSlackUser } from "./users.ts";
import { displayText } from "./wire.ts";

export type { FakeSlack, FakeSlackOptions } from "./fake.ts";

/** Slack redelivers an unacknowledged event nearly at once, after 1 minute, and after 5 minutes. */
const SLACK_EVENT_RETRY_DELAYS_MS = [0, 60_000, 300_000] as const;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function send(res: ServerResponse, answer: ApiAnswer): void {
  if (res.destroyed || res.writableEnded) return;
  if (answer.cut) {
    res.destroy();
    return;
  }
  const body = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
  res.writeHead(answer.status, answer.headers).end(body);
}

/**
 * Starts a fake Slack (Web API, `response_url`s, Socket Mode) on 127.0.0.1 (random port) for the real
 * Bolt to talk to.
 *
 * @example
 * ```ts
 * const slack = await createFakeSlack();
 * const app = new App({
 *   token: slack.botToken,
 *   appToken: slack.appToken,
 *   socketMode: true,
 *   clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } },
 * });
 * app.message("hi", async ({ say }) => void (await say("hello")));
 * await app.start();
 * await slack.user({ id: "U0ALICE", name: "alice" }).say("C0GENERAL", "hi");
 * await slack.waitUntil(() => slack.messages("C0GENERAL").find((m) => m.text === "hello"));
 * await app.stop();
 * await slack.close();
 * ```
 */
export async function createFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const botUserId = options.botUserId ?? "U0FAKEBOT";
  const state = createState(
    {
      botToken: options.botToken ?? "xoxb-fake-bot-token",
      appToken: options.appToken ?? "xapp-1-fake-app-token",
      signingSecret: options.signingSecret ?? "fake-signing-secret",
      appId: "A0FAKEAPP",
      botId: "B0FAKEBOT",
      botUserId,
      botName: options.botName ?? "ask_user_bot",
    },
    {
      now: options.now ?? Date.now,
      echoBotMessages: options.echoBotMessages ?? true,
      eventRetryDelaysMs: options.eventRetryDelaysMs ?? SLACK_EVENT_RETRY_DELAYS_MS,
    },
  );
  const socket = createSocketServer(state);
  state.socket = socket;
  const holds = createHolds(state);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const body = await readBody(req);
    const response = /^\/response\/([\w-]+)$/.exec(url.pathname);
    if (response && req.method === "POST") {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = undefined;
      }
      const answer = postToResponseUrl(state, response[1] ?? "", parsed);
      state.responses.push({
        url: `${state.origin}${url.pathname}`,
        body: (parsed ?? {}) as Params,
        at: state.now(),
        status: answer.status,
      });
      notify(state);
      return send(res, {
        status: answer.status,
        headers: { "content-type": "application/json" },
        body: answer.body,
      });
    }
    const method = /^\/api\/([A-Za-z.]+)$/.exec(url.pathname);
    if (!method) return send(res, { status: 404, headers: {}, body: "Not Found" });
    let params: Params;
    try {
      params = {
        ...Object.fromEntries(url.searchParams),
        ...parseBody(body, req.headers["content-type"] ?? ""),
      };
    } catch (error) {
      const code = error instanceof ApiError ? error.error : "invalid_form_data";
      return send(res, {
        status: 200,
        headers: { "content-type": "application/json" },
        body: { ok: false, error: code },
      });
    }
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const name = method[1] ?? "";
    const call = recordCall(state, name, params);
    const run = () =>
      send(
        res,
        invoke(state, name, params, auth, () => socket.issueUrl(), call),
      );
    if (!holds.park(call, res, run)) run();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      send(res, {
        status: 500,
        headers: { "content-type": "application/json" },
        body: { ok: false, error: "fatal_error", detail: message },
      });
    });
  });
  server.on("upgrade", (req, sock, head) => {
    if (!socket.handleUpgrade(req, sock, head)) sock.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiUrl: `${state.origin}/api/`,
    botToken: state.app.botToken,
    appToken: state.app.appToken,
    signingSecret: state.app.signingSecret,
    bot: { userId: botUserId, botId: state.app.botId, appId: state.app.appId, name: state.app.botName },
    team: { ...state.team },
    calls: state.calls,
    deliveries: state.deliveries,
    responses: state.responses,
    ephemerals: state.ephemerals,
    setRequestUrl(url) {
      state.requestUrls = url === undefined ? [] : typeof url === "string" ? [url] : [...url];
    },
    user(init) {
      state.users.set(init.id, { ...init });
      return createFakeSlackUser(state, init);
    },
    messages: (channel) => [...(state.messages.get(channel)?.values() ?? [])].map((m) => structuredClone(m)),
    message(channel, ts) {
      const found = findMessage(state, channel, ts);
      return found && structuredClone(found);
    },
    views: () => [...state.views.values()].map((v) => structuredClone(v)),
    dmOf: (userId) => state.dms.get(userId) ?? dmId(userId),
    display: (text) => displayText(state, text),
    render(channel, ts) {
      const found = findMessage(state, channel, ts);
      if (!found) throw new Error(`fake Slack: no message ${ts} in ${channel}`);
      return messageText(found, (text) => displayText(state, text));
    },
    failNext(method, failure) {
      state.failures.set(method, [...(state.failures.get(method) ?? []), failure]);
    },
    hold: (method) => holds.hold(method),
    loseNextAck(count = 1) {
      state.lostAcks += count;
    },
    deliver: (body) => deliver(state, body),
    deliverHttp: (body, httpOptions) => deliverHttp(state, body, httpOptions),
    socketConnections: () => socket.connections(),
    disconnectSockets: (reason = "refresh_requested") => socket.disconnectAll(reason),
    waitFor: (predicate, timeoutMs = DEFAULT_WAIT_MS) =>
      waitUntil(state, () => state.calls.find(predicate), timeoutMs, "a matching Web API call"),
    waitUntil: (check, timeoutMs = DEFAULT_WAIT_MS) => waitUntil(state, check, timeoutMs),
    async close() {
      if (state.closed) return;
      state.closed = true;
      for (const timer of state.timers) clearTimeout(timer);
      state.timers.clear();
      holds.dropAll();
      notify(state);
      socket.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
