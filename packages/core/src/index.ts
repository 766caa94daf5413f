/**
 * @ask-user/core — the platform-free heart of ask-user, for applications and hosts: the broker (a question's
 * whole lifecycle over a store and channels), the `ask_user` schema, normaliser and tool definition, results,
 * operator answers, the reply parser, errors (one vocabulary), records, the memory store and the text channel,
 * hosting channel plugins, and the summaries and messages operator surfaces show.
 * Platform authors: `@ask-user/core/channel`. Store authors: `@ask-user/core/store`. Tests:
 * `@ask-user/core/testing`.
 */

export {
  type AskOptions,
  type AskUserBroker,
  type AskUserOptions,
  createAskUser,
  type StageActor,
  type StageRequest,
  type TransitionOutcome,
} from "./broker/broker.ts";
export type { ActionEvent, InboundOutcome, MessageRef, ReplyEvent } from "./broker/inbound.ts";
export { actorName } from "./broker/policy.ts";
export { type PublicQuestion, toPublicQuestion } from "./broker/public-question.ts";
export { createTextChannel, type TextTransport } from "./channels/text.ts";
export {
  AskUserError,
  type AskUserErrorCode,
  ChannelError,
  type ChannelErrorOptions,
  type ChannelFailure,
  codeOfStatus,
  describeError,
  HTTP_STATUS_OF,
  type InputIssue,
  InvalidAskUserInputError,
} from "./model/errors.ts";
export {
  type Actor,
  type AnswererPolicy,
  type Answers,
  type AskUserEvent,
  type AskUserResult,
  type Delivery,
  isTerminal,
  type QuestionRecord,
  type QuestionStatus,
  type RepairClaim,
  resultOf,
  type Target,
  TERMINAL_STATUSES,
  type UserRef,
} from "./model/types.ts";
export type { Channel, ChannelCapabilities, ChannelIngress } from "./ports/channel.ts";
export { type CancelTimer, type Clock, pause, systemClock, TIMED_OUT, within } from "./ports/clock.ts";
export { type Coordination, createMemoryCoordination } from "./ports/coordination.ts";
export { type AskUserLogger, consoleLogger } from "./ports/logger.ts";
export {
  type ChannelEnv,
  type ChannelInstance,
  type ChannelListen,
  type ChannelLogger,
  type ChannelPlugin,
  type ChannelPluginContext,
  type ChannelVariable,
  InvalidChannelConfigError,
  isChannelPlugin,
  readVariable,
  requiredVariablesSet,
} from "./ports/plugin.ts";
export type { ListPage, ListPosition, QuestionFilter, QuestionStore, StoreChange } from "./ports/store.ts";
export { formatTime, type Locale, type Messages, messagesFor, pickLocale } from "./prompt/i18n.ts";
export {
  type RenderOptions,
  renderAnswers,
  renderPromptText,
  renderQuestionLines,
  renderSummary,
  SUMMARY_MAX_LENGTH,
  type SummaryOptions,
} from "./prompt/render.ts";
export { isRecommended, stripRecommended } from "./prompt/text.ts";
export { interpretReply, type ReplyInterpretation } from "./reply/interpret.ts";
export { type AnswersCheck, canonicalValues, checkAnswers, operatorAnswersSchema } from "./schema/answers.ts";
export { normalizeAskUserInput } from "./schema/normalize.ts";
export { askUserResultSchema } from "./schema/result-schema.ts";
export { askUserResultText } from "./schema/result-text.ts";
export {
  type AskUserInput,
  askUserInputSchema,
  askUserOptionSchema,
  askUserQuestionSchema,
  LIMITS,
  type Prompt,
  type PromptOption,
  type PromptQuestion,
  QUESTION_ID_PATTERN,
} from "./schema/schema.ts";
export {
  ASK_USER_DESCRIPTION,
  type AskUserToolDefinition,
  askUserTool,
  askUserToolFor,
} from "./schema/tool.ts";
export { createMemoryStore } from "./stores/memory.ts";
