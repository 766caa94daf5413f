import type { InputIssue, PublicQuestion, Target, UserRef } from "@ask-user/core";

/**
 * The HTTP API's shapes (JSON under /v1). Shared by the server, the HTTP client (CLI, `ask-user mcp`)
 * and the MCP server. A question is core's `PublicQuestion`, the shape the web panel reads too.
 */

export type { PublicQuestion } from "@ask-user/core";

/** `POST /v1/questions` and `POST /v1/ask`: the tool input plus where and for whom. */
export interface CreateQuestionBody {
  questions: unknown;
  timeoutSeconds?: unknown;
  /** `{ channel, conversation }` or `"telegram:123456"`. */
  target?: Target | string;
  creator?: UserRef;
  runId?: string;
  /**
   * BCP 47 tag of the language of the person asked (`"de"`, `"de-AT"`): the prompt, hints and summary
   * are written in it (English when the catalogue lacks the language). Default: the gateway's locale.
   */
  locale?: string;
}

/** `POST /v1/questions/:id/answer`. */
export interface AnswerBody {
  answers: Record<string, string[]>;
}

/** Every error response: `{ error: { code, message, issues? } }` with status 400/401/404/409/422. */
export interface ApiErrorBody {
  error: { code: string; message: string; issues?: InputIssue[] };
}

/** `GET /v1/questions`. */
export interface QuestionList {
  questions: PublicQuestion[];
  /** Present when there are more: pass it as `cursor` for the next page. */
  nextCursor?: string;
}

/** Parses `"telegram:123456"` (or an object) into a target; `undefined` when it is not one. */
export function parseTarget(value: unknown): Target | undefined {
  if (typeof value === "string") {
    const at = value.indexOf(":");
    if (at <= 0 || at === value.length - 1) return undefined;
    return { channel: value.slice(0, at), conversation: value.slice(at + 1) };
  }
  if (typeof value === "object" && value !== null) {
    const { channel, conversation } = value as Record<string, unknown>;
    if (
      typeof channel === "string" &&
      channel !== "" &&
      typeof conversation === "string" &&
      conversation !== ""
    ) {
      return { channel, conversation };
    }
  }
  return undefined;
}
