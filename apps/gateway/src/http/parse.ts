import {
  type Actor,
  type AskOptions,
  type InputIssue,
  InvalidAskUserInputError,
  normalizeAskUserInput,
  type Target,
  type UserRef,
} from "@ask-user/core";
import { parseTarget } from "../api.ts";
import { HttpError } from "./respond.ts";

const CREATE_KEYS = new Set(["questions", "timeoutSeconds", "target", "creator", "runId", "locale"]);
const SURFACES = new Set(["http", "web", "cli", "mcp"]);

/** What `POST /v1/questions` and `POST /v1/ask` ask for, split into tool input and broker options. */
export interface CreateRequest {
  input: { questions: unknown; timeoutSeconds?: unknown };
  options: Omit<AskOptions, "signal">;
}

/**
 * Splits a create body into tool input and options; unknown fields, a malformed target, creator or locale are
 * 422s with field paths (the tool input itself is checked by the broker's normaliser).
 */
export function parseCreate(
  body: Record<string, unknown>,
  defaults: { target: Target | undefined; channels: ReadonlySet<string> },
): CreateRequest {
  const issues: InputIssue[] = [];
  for (const key of Object.keys(body)) {
    if (!CREATE_KEYS.has(key)) {
      const meant = [...CREATE_KEYS].find(
        (known) =>
          known.toLowerCase().includes(key.toLowerCase()) || key.toLowerCase().includes(known.toLowerCase()),
      );
      const hint = meant ? ` Did you mean "${meant}"?` : "";
      issues.push({
        path: key,
        message: `Unknown field "${key}".${hint} Allowed: ${[...CREATE_KEYS].join(", ")}.`,
      });
    }
  }
  let target = defaults.target;
  if (body.target !== undefined && body.target !== null) {
    target = parseTarget(body.target);
    if (!target) {
      issues.push({
        path: "target",
        message: 'target must be "channel:conversation" or { channel, conversation }.',
      });
    } else if (!defaults.channels.has(target.channel)) {
      const running = [...defaults.channels].join(", ") || "none";
      issues.push({
        path: "target.channel",
        message: `No channel named "${target.channel}" is running (running: ${running}).`,
      });
    }
  }
  let creator: UserRef | undefined;
  if (body.creator !== undefined) {
    const c = body.creator as Record<string, unknown> | null;
    if (
      typeof c !== "object" ||
      c === null ||
      typeof c.channel !== "string" ||
      typeof c.userId !== "string"
    ) {
      issues.push({
        path: "creator",
        message: "creator must be { channel, userId, displayName? } with strings.",
      });
    } else {
      creator = { channel: c.channel, userId: c.userId };
      if (typeof c.displayName === "string") creator.displayName = c.displayName;
    }
  }
  if (body.runId !== undefined && (typeof body.runId !== "string" || body.runId.length > 200)) {
    issues.push({ path: "runId", message: "runId must be a string of at most 200 characters." });
  }
  const locale = body.locale === undefined ? undefined : checkLocale(body.locale);
  if (locale && !locale.ok) issues.push({ path: "locale", message: locale.message });
  if (issues.length > 0) {
    // Every problem at once: the tool input's own problems too, not only the envelope's.
    throw new HttpError(422, "invalid_input", "The request has problems; see issues.", [
      ...issues,
      ...inputIssues({ questions: body.questions, timeoutSeconds: body.timeoutSeconds }),
    ]);
  }
  const options: CreateRequest["options"] = {};
  if (target) options.target = target;
  if (creator) options.creator = creator;
  if (typeof body.runId === "string") options.runId = body.runId;
  if (locale?.ok) options.locale = locale.tag;
  const input: CreateRequest["input"] = { questions: body.questions };
  if (body.timeoutSeconds !== undefined) input.timeoutSeconds = body.timeoutSeconds;
  return { input, options };
}

/**
 * A BCP 47 language tag (`de`, `de-AT`, `en-GB`), canonicalised; the prompt is written in it when the
 * catalogue has its language and in English otherwise.
 */
export function checkLocale(value: unknown): { ok: true; tag: string } | { ok: false; message: string } {
  const message = 'locale must be a BCP 47 language tag such as "de" or "en-GB".';
  if (typeof value !== "string" || value.length === 0 || value.length > 35) return { ok: false, message };
  try {
    const [tag] = Intl.getCanonicalLocales(value);
    // The syntax allows 5-8 letter languages ("german"), but none is registered: refuse them.
    return tag && /^[a-z]{2,3}(-|$)/.test(tag) ? { ok: true, tag } : { ok: false, message };
  } catch {
    return { ok: false, message: `"${value}" is not a BCP 47 language tag; give e.g. "de" or "en-GB".` };
  }
}

/** The problems the normaliser finds in the tool input (none when it is fine). */
function inputIssues(input: { questions: unknown; timeoutSeconds: unknown }): InputIssue[] {
  try {
    normalizeAskUserInput(input.timeoutSeconds === undefined ? { questions: input.questions } : input);
    return [];
  } catch (error) {
    if (error instanceof InvalidAskUserInputError) return error.issues;
    throw error;
  }
}

/** Who acts through the operator API: `{ surface?: "http"|"web"|"cli"|"mcp", name? }` in the body. */
export function actorOf(body: Record<string, unknown>): Actor {
  const surface = typeof body.surface === "string" && SURFACES.has(body.surface) ? body.surface : "http";
  const name =
    typeof body.name === "string" && body.name.trim() !== "" ? body.name.trim().slice(0, 64) : undefined;
  const actor: Actor = { channel: surface, userId: name ?? "operator" };
  if (name) actor.displayName = name;
  return actor;
}

const STAGE_KEYS = new Set(["question", "values", "surface", "name"]);

/**
 * Reads a `PUT /v1/questions/:id/draft` body: `{ question, values, surface?, name? }`. Returns the
 * problems of its envelope (the values themselves are checked by the broker against the prompt).
 */
export function stageIssues(body: Record<string, unknown>): InputIssue[] {
  const issues: InputIssue[] = [];
  for (const key of Object.keys(body)) {
    if (!STAGE_KEYS.has(key))
      issues.push({ path: key, message: `Unknown field "${key}". Allowed: ${[...STAGE_KEYS].join(", ")}.` });
  }
  if (typeof body.question !== "string" || body.question === "") {
    issues.push({
      path: "question",
      message: "question is required: the id of one of the prompt's questions.",
    });
  }
  if (body.values === undefined) {
    issues.push({
      path: "values",
      message: "values is required: option labels or your own answer, [] to clear the question.",
    });
  }
  return issues;
}
