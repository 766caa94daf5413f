import {
  type AskUserResult,
  askUserResultSchema,
  askUserResultText,
  askUserTool,
  type InputIssue,
  InvalidAskUserInputError,
  normalizeAskUserInput,
  type Prompt,
  type Target,
} from "@ask-user/core";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { parseTarget } from "../api.ts";
import { checkLocale } from "../http/parse.ts";

/** The sentence the MCP tool adds to core's description: what `target` does and what happens without it. */
export const TARGET_DESCRIPTION =
  'Optional: where to ask, as "telegram:123456" (channel:conversation) or {"channel","conversation"}. ' +
  "Leave it out to use the gateway's default target (or only the web panel when none is configured).";

/** The sentence the MCP tool adds to core's description about `locale`. */
export const LOCALE_DESCRIPTION =
  'Optional: the language of the person you ask, as a BCP 47 tag ("de", "en-GB"); the prompt\'s fixed ' +
  "texts (hints, Skip, the summary) are written in it. Write your questions in that language too. " +
  "Leave it out to use the gateway's language.";

/** The sentence the MCP tool adds to core's description about `runId`. */
export const RUN_ID_DESCRIPTION =
  "Optional: an id of your run (at most 200 characters). If your MCP client gives up waiting (a request " +
  "timeout), call ask_user again with exactly the same input and runId: you resume waiting for the same " +
  "question instead of asking the person twice.";

/** JSON Schema of `runId`. */
const runIdJsonSchema = { description: RUN_ID_DESCRIPTION, type: "string", minLength: 1, maxLength: 200 };

/** JSON Schema of `locale`. */
const localeJsonSchema = {
  description: LOCALE_DESCRIPTION,
  type: "string",
  pattern: "^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$",
  maxLength: 35,
};

/** JSON Schema of `target`: what `parseTarget` accepts, without extra keys. */
const targetJsonSchema = {
  description: TARGET_DESCRIPTION,
  anyOf: [
    { type: "string", pattern: "^[^:]+:.+$" },
    {
      type: "object",
      properties: {
        channel: { type: "string", minLength: 1 },
        conversation: { type: "string", minLength: 1 },
      },
      required: ["channel", "conversation"],
      additionalProperties: false,
    },
  ],
};

/**
 * JSON Schema of `AskUserResult` (SPEC §3), the tool's `structuredContent`: generated from core's
 * `askUserResultSchema`. MCP wants `type: "object"` at the root; the two shapes are a `oneOf` under it.
 */
export const askUserResultJsonSchema: NonNullable<Tool["outputSchema"]> = {
  ...(z.toJSONSchema(askUserResultSchema, { io: "output", target: "draft-2020-12" }) as Record<
    string,
    unknown
  >),
  type: "object",
};

/**
 * The `ask_user` tool as MCP lists it: core's description and input schema (the same JSON Schema the
 * library hands to models) plus `target`, and an output schema for the structured result.
 */
export function askUserMcpTool(): Tool {
  const inputSchema = structuredClone(askUserTool.inputSchema) as Tool["inputSchema"];
  inputSchema.properties = {
    ...inputSchema.properties,
    target: targetJsonSchema,
    locale: localeJsonSchema,
    runId: runIdJsonSchema,
  };
  return {
    name: askUserTool.name,
    title: "Ask the user",
    description: `${askUserTool.description}\n\ntarget: ${TARGET_DESCRIPTION}\n\nlocale: ${LOCALE_DESCRIPTION}\n\nrunId: ${RUN_ID_DESCRIPTION}`,
    inputSchema,
    outputSchema: structuredClone(askUserResultJsonSchema),
    annotations: { title: "Ask the user", readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    // MCP tasks (2025-11-25): a client may get a task handle at once and poll it (the task is the question).
    execution: { taskSupport: "optional" },
  };
}

/** The tool arguments split into what the backend gets, or every problem the backend cannot see. */
export type SplitArguments =
  | {
      ok: true;
      questions: unknown;
      timeoutSeconds: unknown;
      target: Target | undefined;
      locale: string | undefined;
      runId: string | undefined;
    }
  | { ok: false; issues: InputIssue[] };

const TOOL_KEYS = new Set(["questions", "timeoutSeconds", "target", "locale", "runId"]);

/**
 * Takes `target`, `locale` and `runId` off the arguments. The backend validates the rest, but it never sees the
 * top-level keys it does not know (the create body has fixed fields) nor a raw `target` or `locale`, so
 * those are checked here; when either is wrong, core's normaliser adds the problems of the rest so that one answer lists
 * every issue.
 */
export function splitArguments(
  args: Record<string, unknown>,
  defaultTarget: Target | undefined,
): SplitArguments {
  const issues: InputIssue[] = [];
  for (const key of Object.keys(args)) {
    if (!TOOL_KEYS.has(key)) {
      issues.push({
        path: key,
        message: `Unknown field "${key}": ask_user takes questions, timeoutSeconds, target, locale and runId.`,
      });
    }
  }
  let target = defaultTarget;
  if (args.target !== undefined) {
    const targetIssues = checkTarget(args.target);
    issues.push(...targetIssues);
    target = targetIssues.length === 0 ? parseTarget(args.target) : undefined;
  }
  let locale: string | undefined;
  if (args.locale !== undefined) {
    const checked = checkLocale(args.locale);
    if (checked.ok) locale = checked.tag;
    else issues.push({ path: "locale", message: checked.message });
  }
  let runId: string | undefined;
  if (args.runId !== undefined) {
    if (typeof args.runId === "string" && args.runId.length > 0 && args.runId.length <= 200)
      runId = args.runId;
    else
      issues.push({ path: "runId", message: "runId must be a non-empty string of at most 200 characters." });
  }
  if (issues.length === 0) {
    const { questions, timeoutSeconds } = args;
    return { ok: true, questions, timeoutSeconds, target, locale, runId };
  }
  const { target: _target, locale: _locale, runId: _runId, ...rest } = args;
  try {
    normalizeAskUserInput(rest);
  } catch (error) {
    if (!(error instanceof InvalidAskUserInputError)) throw error;
    const seen = new Set(issues.map((issue) => issue.path));
    issues.push(...error.issues.filter((issue) => !seen.has(issue.path)));
  }
  return { ok: false, issues };
}

function checkTarget(value: unknown): InputIssue[] {
  const hint =
    'Give "channel:conversation" (e.g. "telegram:123456") or {channel, conversation}, or leave it out.';
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const extra = Object.keys(value).filter((key) => key !== "channel" && key !== "conversation");
    if (extra.length > 0) {
      return extra.map((key) => ({ path: `target.${key}`, message: `Unknown field "${key}". ${hint}` }));
    }
  }
  return parseTarget(value) ? [] : [{ path: "target", message: `target is not a valid target. ${hint}` }];
}

/** The issues as the tool's error text: one line per problem, each with its path. */
export function issuesText(issues: readonly InputIssue[]): string {
  const count = `${issues.length} problem${issues.length === 1 ? "" : "s"}`;
  const lines = issues.map((issue) => `- ${issue.path || "(input)"}: ${issue.message}`);
  return `The ask_user input has ${count}; fix ${issues.length === 1 ? "it" : "them all"} and call again:\n${lines.join("\n")}`;
}

/**
 * The one-line text a model reads (core's `askUserResultText`): `answered: deploy_target = Production`,
 * or `no_answer (expired): continue with your best judgment`.
 */
export const resultText: (result: AskUserResult, prompt?: Prompt) => string = askUserResultText;
