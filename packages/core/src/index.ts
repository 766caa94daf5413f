/**
 * @ask-user/core — the platform-free heart of ask-user: the `ask_user` schema and normaliser, the
 * reply parser, text rendering, the button codec, the broker (lifecycle, deadlines, routing) and the
 * store and channel ports.
 */

export {
  type AskOptions,
  type AskUserBroker,
  type AskUserOptions,
  createAskUser,
  type TransitionOutcome,
} from "./broker/broker.ts";
export type { ActionEvent, InboundOutcome, MessageRef, ReplyEvent } from "./broker/inbound.ts";
export {
  type Answerer,
  actorName,
  checkAnswerer,
  type Refusal,
  type RefusalReason,
  refusalForStatus,
} from "./broker/policy.ts";
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
  awaitsSummary,
  type Delivery,
  isTerminal,
  needsRepair,
  type QuestionRecord,
  type QuestionStatus,
  type RepairClaim,
  resultOf,
  type Target,
  TERMINAL_STATUSES,
  type UserRef,
} from "./model/types.ts";
export type {
  Channel,
  ChannelCapabilities,
  ChannelIngress,
  DeliverRequest,
  DeliveryRef,
  FinalizeRequest,
  Notice,
  NoticePurpose,
  RefreshRequest,
} from "./ports/channel.ts";
export { isConfirmation } from "./ports/channel.ts";
export { type CancelTimer, type Clock, pause, systemClock } from "./ports/clock.ts";
export {
  type Coordination,
  createMemoryCoordination,
  type KeepLeaseOptions,
  keepLease,
  type LeaseKeeper,
} from "./ports/coordination.ts";
export { type AskUserLogger, consoleLogger } from "./ports/logger.ts";
export {
  type ChannelAdapter,
  type ChannelDefinition,
  type ChannelEnv,
  type ChannelInstance,
  type ChannelListen,
  type ChannelLogger,
  type ChannelPlugin,
  type ChannelPluginContext,
  type ChannelVariable,
  defineChannel,
  InvalidChannelConfigError,
  isChannelPlugin,
  readVariable,
  requiredVariablesSet,
} from "./ports/plugin.ts";
export {
  type ListPage,
  type ListPosition,
  matchesFilter,
  type QuestionFilter,
  type QuestionStore,
  type StoreChange,
} from "./ports/store.ts";
export {
  type Action,
  type DecodedAction,
  decodeAction,
  encodeAction,
  MAX_ACTION_BYTES,
  newActionToken,
} from "./prompt/codec.ts";
export { clipLongestFirst, fitView, shortenView } from "./prompt/fit.ts";
export { formatTime, type Locale, type Messages, messagesFor, pickLocale } from "./prompt/i18n.ts";
export {
  createPromptMessages,
  PROMPT_MESSAGES_REMEMBERED,
  type PromptEdit,
  type PromptMessages,
  rememberBounded,
} from "./prompt/messages.ts";
export {
  promptAudience,
  type RenderOptions,
  renderAnswers,
  renderPromptText,
  renderQuestionLines,
  renderSummary,
  SUMMARY_MAX_LENGTH,
  type SummaryOptions,
} from "./prompt/render.ts";
export {
  clipText,
  compareKey,
  graphemeLength,
  isRecommended,
  RECOMMENDED_SUFFIX,
  stripRecommended,
  truncateGraphemes,
} from "./prompt/text.ts";
export {
  buildPromptView,
  type ControlView,
  type FormLimits,
  firstOpenQuestion,
  isForm,
  isFormPrompt,
  type OptionView,
  type PromptLayout,
  type PromptView,
  type PromptViewOptions,
  type QuestionView,
  questionTextLines,
  renderViewText,
  type StatusLine,
} from "./prompt/view.ts";
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
