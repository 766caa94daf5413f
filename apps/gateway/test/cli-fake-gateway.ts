import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type Answers,
  InvalidAskUserInputError,
  normalizeAskUserInput,
  type QuestionStatus,
  resultOf,
} from "@ask-user/core";
import { afterEach } from "vitest";
import { type PublicQuestion, parseTarget } from "../src/api.ts";

/**
 * A small stand-in for the gateway's HTTP API on 127.0.0.1, for the CLI and HTTP client tests: the
 * endpoints, bearer auth, 404/409/422 and long-polling, with the real normaliser behind `POST`.
 */
export interface FakeGateway {
  url: string;
  questions: Map<string, PublicQuestion>;
  /** Every request: method, path with query, Authorization header and JSON body. */
  requests: Array<{ method: string; path: string; authorization: string | undefined; body: unknown }>;
  /** Called after each create, e.g. to answer or expire it a moment later. */
  onCreate: ((question: PublicQuestion) => void) | undefined;
  /** Ends a pending question the way a channel or the clock would. */
  resolve(id: string, status: Exclude<QuestionStatus, "pending">, answers?: Answers): void;
  /** Stops listening and cuts every connection, as a gateway that dies does; its questions stay. */
  down(): Promise<void>;
  /** Listens again on the same port, as a gateway restarted with its durable store does. */
  up(): Promise<void>;
  close(): Promise<void>;
}

const running: FakeGateway[] = [];

afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.close();
});

/** A port on 127.0.0.1 with nothing listening. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export const deployInput = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging", description: "Safe" }, { label: "Production" }],
    },
  ],
};

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: Array<{ path: string; message: string }>,
  ) {
    super(message);
  }
}

const refusals: Record<Exclude<QuestionStatus, "pending">, string> = {
  answered: "This question was already answered.",
  skipped: "This question was skipped.",
  expired: "This question expired.",
  cancelled: "This question was cancelled.",
  undeliverable: "This question could not be delivered and is closed.",
};

/** Starts the fake; closed after the test. With `token`, `/v1` wants `Authorization: Bearer <token>`. */
export async function startFakeGateway(options: { token?: string } = {}): Promise<FakeGateway> {
  const questions = new Map<string, PublicQuestion>();
  const waiters = new Map<string, Set<() => void>>();
  const timers = new Set<NodeJS.Timeout>();
  const requests: FakeGateway["requests"] = [];

  function resolve(
    id: string,
    status: Exclude<QuestionStatus, "pending">,
    answers?: Answers,
    by = "telegram",
  ) {
    const question = questions.get(id);
    if (question?.status !== "pending") return;
    const next: PublicQuestion = {
      ...question,
      status,
      version: question.version + 1,
      resolvedAt: Date.now(),
    };
    if (answers) next.answers = answers;
    if (status === "answered" || status === "skipped")
      next.resolvedBy = { channel: by, userId: "1", displayName: "@alice" };
    const result = resultOf({ ...next, tokens: [] });
    if (result) next.result = result;
    questions.set(id, next);
    for (const wake of waiters.get(id) ?? []) wake();
  }

  function found(id: string): PublicQuestion {
    const question = questions.get(id);
    if (!question) throw new Refusal(404, "not_found", `No question with id ${id}.`);
    return question;
  }

  function pending(id: string): PublicQuestion {
    const question = found(id);
    if (question.status !== "pending") throw new Refusal(409, question.status, refusals[question.status]);
    return question;
  }

  async function waitWhilePending(id: string, seconds: number, res: ServerResponse): Promise<void> {
    if (found(id).status !== "pending" || seconds <= 0) return;
    await new Promise<void>((done) => {
      const set = waiters.get(id) ?? new Set();
      waiters.set(id, set);
      const finish = () => {
        clearTimeout(timer);
        set.delete(finish);
        res.off("close", finish);
        done();
      };
      const timer = setTimeout(finish, Math.min(seconds, 60) * 1000);
      set.add(finish);
      res.on("close", finish);
    });
  }

  async function route(req: IncomingMessage, res: ServerResponse, url: URL, body: Record<string, unknown>) {
    const method = req.method ?? "GET";
    if (url.pathname === "/healthz") return send(res, 200, { ok: true, draining: false });
    if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) {
      throw new Refusal(
        401,
        "unauthorized",
        "This gateway needs a token: send Authorization: Bearer <ASK_USER_TOKEN>.",
      );
    }
    if (url.pathname === "/v1/questions" && method === "POST") {
      let prompt: PublicQuestion["prompt"];
      try {
        prompt = normalizeAskUserInput({ questions: body.questions, timeoutSeconds: body.timeoutSeconds });
      } catch (error) {
        if (error instanceof InvalidAskUserInputError)
          throw new Refusal(422, "invalid_input", error.message, error.issues);
        throw error;
      }
      const now = Date.now();
      const question: PublicQuestion = {
        id: randomBytes(8).toString("hex"),
        version: 1,
        prompt,
        answerers: { kind: "creator" },
        locale: "en",
        createdAt: now,
        expiresAt: now + prompt.timeoutSeconds * 1000,
        status: "pending",
        deliveries: [],
      };
      const target = parseTarget(body.target);
      if (target) question.target = target;
      if (typeof body.runId === "string") question.runId = body.runId;
      questions.set(question.id, question);
      const timer = setTimeout(() => resolve(question.id, "expired"), prompt.timeoutSeconds * 1000);
      timers.add(timer);
      send(res, 201, question);
      gateway.onCreate?.(question);
      return;
    }
    if (url.pathname === "/v1/questions" && method === "GET") {
      const status = url.searchParams.get("status");
      const runId = url.searchParams.get("runId");
      const list = [...questions.values()].filter(
        (q) => (status === null || q.status === status) && (runId === null || q.runId === runId),
      );
      return send(res, 200, { questions: list });
    }
    const match = /^\/v1\/questions\/([^/]+)(\/answer|\/skip)?$/.exec(url.pathname);
    const id = decodeURIComponent(match?.[1] ?? "");
    const action = `${method} ${match?.[2] ?? ""}`;
    if (!match) throw new Refusal(404, "not_found", `No route ${method} ${url.pathname}.`);
    if (action === "GET ") {
      await waitWhilePending(id, Number(url.searchParams.get("wait") ?? 0), res);
      return send(res, 200, found(id));
    }
    if (action === "POST /answer") {
      const question = pending(id);
      const answers = (body.answers ?? {}) as Answers;
      const known = new Set(question.prompt.questions.map((q) => q.id));
      const issues = Object.keys(answers)
        .filter((key) => !known.has(key))
        .map((key) => ({ path: `answers.${key}`, message: `There is no question "${key}".` }));
      if (issues.length > 0)
        throw new Refusal(422, "invalid_answers", "The answers do not fit the question.", issues);
      resolve(id, "answered", answers, String(body.surface ?? "http"));
      return send(res, 200, found(id));
    }
    if (action === "POST /skip" || action === "DELETE ") {
      pending(id);
      resolve(id, action === "DELETE " ? "cancelled" : "skipped", undefined, String(body.surface ?? "http"));
      return send(res, 200, found(id));
    }
    throw new Refusal(404, "not_found", `No route ${method} ${url.pathname}.`);
  }

  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString("utf8");
      const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      requests.push({
        method: req.method ?? "GET",
        path: `${url.pathname}${url.search}`,
        authorization: req.headers.authorization,
        body,
      });
      try {
        await route(req, res, url, body);
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        const payload: { code: string; message: string; issues?: unknown } = {
          code: error.code,
          message: error.message,
        };
        if (error.issues) payload.issues = error.issues;
        send(res, error.status, { error: payload });
      }
    })();
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as AddressInfo;
  const stop = async () => {
    server.closeAllConnections();
    if (server.listening) await new Promise<void>((done) => server.close(() => done()));
  };

  const gateway: FakeGateway = {
    url: `http://127.0.0.1:${port}`,
    questions,
    requests,
    onCreate: undefined,
    resolve: (id, status, answers) => resolve(id, status, answers),
    down: stop,
    async up() {
      await new Promise<void>((ready) => server.listen(port, "127.0.0.1", ready));
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      await stop();
    },
  };
  running.push(gateway);
  return gateway;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
