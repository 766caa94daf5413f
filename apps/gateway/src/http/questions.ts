import {
  type AskUserBroker,
  type InputIssue,
  InvalidAskUserInputError,
  type QuestionStatus,
  type Target,
  type TransitionOutcome,
  toPublicQuestion,
} from "@ask-user/core";
import type { Context, Hono } from "hono";
import { decodeCursor, questionPage } from "../cursor.ts";
import { waitWhilePending } from "../wait.ts";
import type { GatewayEnv } from "./env.ts";
import { actorOf, parseCreate, stageIssues } from "./parse.ts";
import { HttpError, type JsonReply, readObject, reply, sendJson } from "./respond.ts";

/** What the question routes need. */
export interface QuestionRoutesContext {
  broker: AskUserBroker;
  defaultTarget: Target | undefined;
  channels: ReadonlySet<string>;
}

type C = Context<GatewayEnv>;

const STATUSES = new Set(["pending", "answered", "skipped", "expired", "cancelled", "undeliverable"]);
const DEFAULT_PAGE = 100;
const MAX_PAGE = 500;

const MAX_WAIT_SECONDS = 300;
/** Question ids as the broker makes them (a pattern's source); anything else is an unknown path. */
export const QUESTION_ID = "[A-Za-z0-9_-]{1,64}";
const ID = `:id{${QUESTION_ID}}`;
const ANSWER_PATH = `/v1/questions/${ID}/answer`;

function inputError(error: unknown): never {
  if (error instanceof InvalidAskUserInputError) {
    throw new HttpError(422, "invalid_input", error.message, error.issues);
  }
  throw error;
}

function transitionResult(c: C, outcome: TransitionOutcome, invalid = "invalid_answers"): Response {
  return reply(c, transitionReply(outcome, invalid));
}

function transitionReply(outcome: TransitionOutcome, invalid = "invalid_answers"): JsonReply {
  if (outcome.ok) return { status: 200, body: toPublicQuestion(outcome.record) };
  if (outcome.reason === "unknown") throw new HttpError(404, "not_found", outcome.message);
  if (outcome.reason === "invalid") throw new HttpError(422, invalid, outcome.message, outcome.issues);
  throw new HttpError(409, outcome.reason, outcome.message);
}

/** A create body (`POST /v1/questions`, `POST /v1/ask`) as tool input and broker options. */
const createRequest = (ctx: QuestionRoutesContext, body: Record<string, unknown>) =>
  parseCreate(body, { target: ctx.defaultTarget, channels: ctx.channels });

/**
 * The routes an agent's cycle goes through (create, wait, answer), as functions of what the request
 * says: the app's routes call them, and so does the fast lane in front of the app (`fast-lane.ts`).
 */
export interface HotRoutes {
  /**
   * `GET /v1/questions/:id?wait=SECONDS`: the question, long-polling while it is pending (at most
   * 300 s); `signal()` is asked for only when it waits, and aborts when the client goes away.
   */
  read(id: string, waitText: string | undefined, signal: () => AbortSignal): Promise<JsonReply>;
  /** `POST /v1/questions`: create and deliver; 201 with the question. */
  create(body: Record<string, unknown>): Promise<JsonReply>;
  /** `POST /v1/questions/:id/answer` with `{ answers, surface?, name? }`. */
  answer(id: string, body: Record<string, unknown>): Promise<JsonReply>;
}

/** The hot routes over `ctx`. */
export function hotRoutes(ctx: QuestionRoutesContext): HotRoutes {
  return {
    async read(id, waitText, signal) {
      const wait = waitText === undefined ? 0 : Number(waitText);
      if (!Number.isFinite(wait) || wait < 0) {
        throw new HttpError(
          400,
          "invalid_query",
          `wait must be a number of seconds (0-${MAX_WAIT_SECONDS}).`,
        );
      }
      const waitMs = Math.min(wait, MAX_WAIT_SECONDS) * 1000;
      const record = await waitWhilePending(ctx.broker, id, waitMs, waitMs > 0 ? signal() : undefined);
      if (!record) throw new HttpError(404, "not_found", `No question with id ${id}.`);
      return { status: 200, body: toPublicQuestion(record) };
    },
    async create(body) {
      const { input, options } = createRequest(ctx, body);
      const record = await ctx.broker.create(input, options).catch(inputError);
      return { status: 201, body: toPublicQuestion(record) };
    },
    async answer(id, body) {
      if (body.answers === undefined) {
        // An unknown question is a 404 before the missing field; a known one is told what to send.
        if (!(await ctx.broker.get(id))) throw new HttpError(404, "not_found", `No question with id ${id}.`);
        throw new HttpError(422, "invalid_answers", 'Send { "answers": { "<question id>": ["<value>"] } }.', [
          { path: "answers", message: "answers is required." },
        ]);
      }
      // The broker reads the question itself: no read of our own before it (one store read per answer).
      const outcome = await ctx.broker.answer(id, body.answers, actorOf(body));
      if (!outcome.ok && outcome.reason === "unknown")
        throw new HttpError(404, "not_found", `No question with id ${id}.`);
      return transitionReply(outcome);
    },
  };
}

/**
 * The question routes under `/v1`: create, list, read (long-poll), stage a draft, answer, skip, cancel, and
 * create-and-wait. Bodies were read and checked (JSON, size) by the app's middleware.
 */
export function mountQuestionRoutes(app: Hono<GatewayEnv>, ctx: QuestionRoutesContext): void {
  const hot = hotRoutes(ctx);

  app.post("/v1/questions", async (c) => reply(c, await hot.create(readObject(c))));

  /**
   * `?status=&runId=&limit=&cursor=`: one page, oldest first (default 100, at most 500), with
   * `nextCursor` when there is more.
   */
  app.get("/v1/questions", async (c) => {
    const issues: InputIssue[] = [];
    const status = c.req.query("status");
    if (status !== undefined && !STATUSES.has(status)) {
      issues.push({ path: "status", message: `status must be one of ${[...STATUSES].join(", ")}.` });
    }
    const limitText = c.req.query("limit") ?? String(DEFAULT_PAGE);
    const limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || limit < 1 || limit > MAX_PAGE) {
      issues.push({ path: "limit", message: `limit must be a whole number from 1 to ${MAX_PAGE}.` });
    }
    const cursorText = c.req.query("cursor");
    const after = cursorText === undefined ? undefined : decodeCursor(cursorText);
    if (cursorText !== undefined && !after) {
      issues.push({ path: "cursor", message: "cursor must be a nextCursor this API returned." });
    }
    if (issues.length > 0) {
      throw new HttpError(400, "invalid_query", issues.map((i) => i.message).join(" "), issues);
    }
    const filter: { status?: QuestionStatus; runId?: string } = {};
    if (status !== undefined) filter.status = status as QuestionStatus;
    const runId = c.req.query("runId");
    if (runId !== undefined) filter.runId = runId;
    return sendJson(c, 200, await questionPage(ctx.broker, filter, after, limit));
  });

  /** `?wait=SECONDS`: long-polls while the question is pending; the client going away ends the wait. */
  app.get(`/v1/questions/${ID}`, async (c) =>
    reply(c, await hot.read(c.req.param("id"), c.req.query("wait"), () => c.req.raw.signal)),
  );

  app.post(ANSWER_PATH, async (c) => reply(c, await hot.answer(c.req.param("id"), readObject(c))));

  /**
   * `{ question, values, surface?, name? }`: stages one question's values in the shared draft (the one
   * every surface fills; `[]` clears it) without answering; 200 with the question and its `draft`.
   */
  app.put(`/v1/questions/${ID}/draft`, async (c) => {
    const id = c.req.param("id");
    const body = readObject(c);
    const issues = stageIssues(body);
    if (issues.length > 0) {
      if (!(await ctx.broker.get(id))) throw new HttpError(404, "not_found", `No question with id ${id}.`);
      const message = 'Send { "question": "<question id>", "values": ["<label or your own answer>"] }.';
      throw new HttpError(422, "invalid_draft", message, issues);
    }
    const request = { question: body.question as string, values: body.values };
    const outcome = await ctx.broker.stage(id, request, actorOf(body));
    if (!outcome.ok && outcome.reason === "unknown")
      throw new HttpError(404, "not_found", `No question with id ${id}.`);
    return transitionResult(c, outcome, "invalid_draft");
  });

  app.post(`/v1/questions/${ID}/skip`, async (c) => {
    const body = readObject(c);
    return transitionResult(c, await ctx.broker.skip(c.req.param("id"), actorOf(body)));
  });

  /** Cancel. */
  app.delete(`/v1/questions/${ID}`, async (c) =>
    transitionResult(c, await ctx.broker.cancel(c.req.param("id"), { channel: "http", userId: "operator" })),
  );

  /**
   * Create and wait; the client closing the request cancels the question at any moment, including
   * while the prompt is still being delivered.
   */
  app.post("/v1/ask", async (c) => {
    const { input, options } = createRequest(ctx, readObject(c));
    const signal = c.req.raw.signal;
    const result = await ctx.broker.ask(input, { ...options, signal }).catch(inputError);
    return sendJson(c, 200, result);
  });
}
