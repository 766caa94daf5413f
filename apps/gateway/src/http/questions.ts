import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type AskUserBroker,
  InvalidAskUserInputError,
  type QuestionRecord,
  type QuestionStatus,
  type Target,
  type TransitionOutcome,
} from "@ask-user/core";
import { toPublic } from "../api.ts";
import { waitWhilePending } from "../wait.ts";
import { actorOf, parseCreate } from "./parse.ts";
import { HttpError, readObject, sendJson } from "./respond.ts";

/** What the question routes need. */
export interface QuestionRoutesContext {
  broker: AskUserBroker;
  defaultTarget: Target | undefined;
  channels: ReadonlySet<string>;
}

const STATUSES = new Set(["pending", "answered", "skipped", "expired", "cancelled", "undeliverable"]);
const MAX_WAIT_SECONDS = 300;

function inputError(error: unknown): never {
  if (error instanceof InvalidAskUserInputError) {
    throw new HttpError(422, "invalid_input", error.message, error.issues);
  }
  throw error;
}

async function found(broker: AskUserBroker, id: string): Promise<QuestionRecord> {
  const record = await broker.get(id);
  if (!record) throw new HttpError(404, "not_found", `No question with id ${id}.`);
  return record;
}

function transitionResult(res: ServerResponse, outcome: TransitionOutcome): void {
  if (outcome.ok) {
    sendJson(res, 200, toPublic(outcome.record));
    return;
  }
  if (outcome.reason === "unknown") throw new HttpError(404, "not_found", outcome.message);
  if (outcome.reason === "invalid")
    throw new HttpError(422, "invalid_answers", outcome.message, outcome.issues);
  throw new HttpError(409, outcome.reason, outcome.message);
}

/** `POST /v1/questions`: create and deliver; 201 with the question. */
export async function createQuestion(ctx: QuestionRoutesContext, req: IncomingMessage, res: ServerResponse) {
  const { input, options } = parseCreate(await readObject(req), {
    target: ctx.defaultTarget,
    channels: ctx.channels,
  });
  const record = await ctx.broker.create(input, options).catch(inputError);
  sendJson(res, 201, toPublic(record));
}

/**
 * `POST /v1/ask`: create and wait; the client closing the request cancels the question at any moment,
 * including while the prompt is still being delivered.
 */
export async function askAndWait(ctx: QuestionRoutesContext, req: IncomingMessage, res: ServerResponse) {
  const { input, options } = parseCreate(await readObject(req), {
    target: ctx.defaultTarget,
    channels: ctx.channels,
  });
  const abort = new AbortController();
  const onClose = () => {
    if (!res.writableEnded) abort.abort();
  };
  res.on("close", onClose);
  try {
    const result = await ctx.broker.ask(input, { ...options, signal: abort.signal }).catch(inputError);
    if (!abort.signal.aborted) sendJson(res, 200, result);
  } finally {
    res.off("close", onClose);
  }
}

/** `GET /v1/questions?status=&runId=`. */
export async function listQuestions(
  ctx: QuestionRoutesContext,
  _req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) {
  const status = url.searchParams.get("status");
  if (status !== null && !STATUSES.has(status)) {
    throw new HttpError(400, "invalid_query", `status must be one of ${[...STATUSES].join(", ")}.`);
  }
  const filter: { status?: QuestionStatus; runId?: string } = {};
  if (status !== null) filter.status = status as QuestionStatus;
  const runId = url.searchParams.get("runId");
  if (runId !== null) filter.runId = runId;
  const records = await ctx.broker.list(filter);
  sendJson(res, 200, { questions: records.map(toPublic) });
}

/** `GET /v1/questions/:id?wait=SECONDS`: long-polls while the question is pending. */
export async function getQuestion(
  ctx: QuestionRoutesContext,
  _req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  id: string,
) {
  const waitText = url.searchParams.get("wait");
  const wait = waitText === null ? 0 : Number(waitText);
  if (!Number.isFinite(wait) || wait < 0) {
    throw new HttpError(400, "invalid_query", `wait must be a number of seconds (0-${MAX_WAIT_SECONDS}).`);
  }
  // The response closing before we answered means the client went away (IncomingMessage's own "close"
  // fires as soon as the request body is read, so it is the wrong signal).
  const closed = new AbortController();
  const onClose = () => closed.abort();
  res.on("close", onClose);
  const waitMs = Math.min(wait, MAX_WAIT_SECONDS) * 1000;
  const record = await waitWhilePending(ctx.broker, id, waitMs, closed.signal).finally(() =>
    res.off("close", onClose),
  );
  if (!record) throw new HttpError(404, "not_found", `No question with id ${id}.`);
  sendJson(res, 200, toPublic(record));
}

/** `POST /v1/questions/:id/answer` with `{ answers }`. */
export async function answerQuestion(
  ctx: QuestionRoutesContext,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
) {
  const body = await readObject(req);
  await found(ctx.broker, id);
  if (body.answers === undefined) {
    throw new HttpError(422, "invalid_answers", 'Send { "answers": { "<question id>": ["<value>"] } }.', [
      { path: "answers", message: "answers is required." },
    ]);
  }
  transitionResult(res, await ctx.broker.answer(id, body.answers, actorOf(body)));
}

/** `POST /v1/questions/:id/skip`. */
export async function skipQuestion(
  ctx: QuestionRoutesContext,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
) {
  const body = await readObject(req);
  transitionResult(res, await ctx.broker.skip(id, actorOf(body)));
}

/** `DELETE /v1/questions/:id`: cancel. */
export async function cancelQuestion(
  ctx: QuestionRoutesContext,
  _req: IncomingMessage,
  res: ServerResponse,
  id: string,
) {
  transitionResult(res, await ctx.broker.cancel(id, { channel: "http", userId: "operator" }));
}
