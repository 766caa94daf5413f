/**
 * @ask-user/core — the platform-free heart of ask-user: the `ask_user` schema and normaliser, the
 * reply parser, text rendering, the button codec, the broker (lifecycle, deadlines, routing) and the
 * store and channel ports.
 */
export { type AnswersCheck, canonicalValues, checkAnswers, operatorAnswersSchema } from "./answers.ts";
export {
  type AskOptions,
  type AskUserBroker,
  type AskUserOptions,
  createAskUser,
  type TransitionOutcome,
} from "./broker.ts";
export { type AskUserLogger, consoleLogger } from "./broker-context.ts";
export { isForm } from "./broker-form.ts";
export type { ActionEvent, InboundOutcome, MessageRef, ReplyEvent } from "./broker-inbound.ts";
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
} from "./channel.ts";
export { isConfirmation } from "./channel.ts";
export { type CancelTimer, type Clock, pause, systemClock } from "./clock.ts";
export {
  type Action,
  type DecodedAction,
  decodeAction,
  encodeAction,
  MAX_ACTION_BYTES,
  newActionToken,
} from "./codec.ts";
export {
  type Coordination,
  createMemoryCoordination,
  type KeepLeaseOptions,
  keepLease,
  type LeaseKeeper,
} from "./coordination.ts";
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
} from "./errors.ts";
export { formatTime, type Locale, type Messages, messagesFor, pickLocale } from "./i18n.ts";
export { interpretReply, type ReplyInterpretation } from "./interpret.ts";
export { createMemoryStore } from "./memory-store.ts";
export { normalizeAskUserInput } from "./normalize.ts";
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
} from "./plugin.ts";
export {
  type Answerer,
  actorName,
  checkAnswerer,
  type Refusal,
  type RefusalReason,
  refusalForStatus,
} from "./policy.ts";
export { clipLongestFirst, fitView, shortenView } from "./prompt/fit.ts";
export {
  createPromptMessages,
  PROMPT_MESSAGES_REMEMBERED,
  type PromptEdit,
  type PromptMessages,
  rememberBounded,
} from "./prompt/messages.ts";
export {
  buildPromptView,
  type ControlView,
  type FormLimits,
  firstOpenQuestion,
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
export { type PublicQuestion, toPublicQuestion } from "./public-question.ts";
export {
  promptAudience,
  type RenderOptions,
  renderAnswers,
  renderPromptText,
  renderQuestionLines,
  renderSummary,
  SUMMARY_MAX_LENGTH,
  type SummaryOptions,
} from "./render.ts";
export { askUserResultSchema } from "./result-schema.ts";
export { askUserResultText } from "./result-text.ts";
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
} from "./schema.ts";
export {
  type ListPage,
  type ListPosition,
  matchesFilter,
  type QuestionFilter,
  type QuestionStore,
  type StoreChange,
} from "./store.ts";
export {
  clipText,
  compareKey,
  graphemeLength,
  isRecommended,
  RECOMMENDED_SUFFIX,
  stripRecommended,
  truncateGraphemes,
} from "./text.ts";
export { createTextChannel, type TextTransport } from "./text-channel.ts";
export { ASK_USER_DESCRIPTION, type AskUserToolDefinition, askUserTool, askUserToolFor } from "./tool.ts";
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
} from "./types.ts";
