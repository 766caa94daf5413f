import type { PublicQuestion, QuestionStatus, Target, UserRef } from "@ask-user/core";

export type { PublicQuestion };

/** Where and for whom a question is asked (the options of `ask` and `create`). */
export interface QuestionOptions {
  /** `{ channel, conversation }` or `"telegram:123456"`; without it, the gateway's default target. */
  target?: Target | string;
  /** The user whose request started the run; by default only they may answer in a chat. */
  creator?: UserRef;
  /** Groups the questions of one agent run (`list({ runId })`). */
  runId?: string;
  /**
   * BCP 47 tag of the language of the person asked (`"de"`, `"de-AT"`): the prompt's fixed texts and
   * summary are written in it (English when the gateway has no catalogue for it). Default: the gateway's.
   */
  locale?: string;
  /**
   * `ask`: aborting cancels the question, at any moment. `create`: aborting after the request was sent
   * cancels the question once it exists.
   */
  signal?: AbortSignal;
}

/** Which questions `list` and `listPage` return. */
export interface ListFilter {
  status?: QuestionStatus;
  runId?: string;
  /** Questions per page, 1-500 (the gateway's default is 100). */
  limit?: number;
}

/** One page of `GET /v1/questions`, oldest first. */
export interface QuestionPage {
  questions: PublicQuestion[];
  /** Present when there are more: pass it as `cursor` for the next page. */
  nextCursor?: string;
}

/** The names of the gateway's question events. */
export type QuestionEventType = "question.requested" | "question.updated" | "question.resolved";

/** One item of `events()`. */
export type GatewayEvent =
  | {
      type: QuestionEventType;
      /** The event id (`<epoch>-<n>`), sent back as `Last-Event-ID` on reconnect. */
      id: string;
      question: PublicQuestion;
    }
  | {
      /**
       * The gateway could not resume from the last event id (it restarted, or this is another
       * instance, or the client fell too far behind): events may be missing — refetch with `list`.
       */
      type: "reset";
      reason: string;
    };
