/**
 * `@ask-user/core/channel` — the kit of a platform author: one channel definition (`defineChannel`), the
 * channel port and its requests, the prompt view core computes (`buildPromptView`, `fitView`,
 * `renderViewText`), the one form state (`createPromptMessages`), the action codec, notices, text helpers
 * and messages, leases for connections a platform allows once, the kit around a platform (handled once,
 * answer within N ms, the not-ready answer) and the record and broker types a channel reads. Applications use `@ask-user/core`; see the README's "Write a channel".
 */

export type { AskUserBroker } from "./broker/broker.ts";
export type { ActionEvent, InboundOutcome, MessageRef, ReplyEvent } from "./broker/inbound.ts";
export { actorName } from "./broker/policy.ts";
export {
  type Background,
  type BackgroundOptions,
  createBackground,
  type WithinOutcome,
} from "./channels/answer-within.ts";
export { notReadyResponse } from "./channels/not-ready.ts";
export { createOnce, ONCE_ATTEMPTS_DEFAULT, type Once, type OnceOptions } from "./channels/once.ts";
export { createTextChannel, type TextTransport } from "./channels/text.ts";
export {
  AskUserError,
  ChannelError,
  type ChannelErrorOptions,
  type ChannelFailure,
  describeError,
} from "./model/errors.ts";
export {
  type Actor,
  type Answers,
  type AskUserResult,
  type Delivery,
  isTerminal,
  type QuestionRecord,
  type QuestionStatus,
  type Target,
  type UserRef,
} from "./model/types.ts";
export {
  type Channel,
  type ChannelCapabilities,
  type ChannelIngress,
  type DeliverRequest,
  type DeliveryRef,
  type FinalizeRequest,
  isConfirmation,
  type Notice,
  type NoticePurpose,
  type RefreshRequest,
} from "./ports/channel.ts";
export { type Clock, pause, systemClock, TIMED_OUT, within } from "./ports/clock.ts";
export {
  type Coordination,
  createMemoryCoordination,
  type KeepLeaseOptions,
  keepLease,
  type LeaseKeeper,
} from "./ports/coordination.ts";
export { type AskUserLogger, consoleLogger } from "./ports/logger.ts";
export {
  adapterOf,
  type ChannelAdapter,
  type ChannelDefinition,
  type ChannelEnv,
  type ChannelListen,
  type ChannelLogger,
  type ChannelPlugin,
  type ChannelPluginContext,
  type ChannelVariable,
  defineChannel,
  InvalidChannelConfigError,
  readVariable,
  requiredVariablesSet,
} from "./ports/plugin.ts";
export { type DecodedAction, decodeAction, encodeAction, newActionToken } from "./prompt/codec.ts";
export { clipLongestFirst, fitView } from "./prompt/fit.ts";
export { formatTime, type Locale, type Messages, messagesFor, pickLocale } from "./prompt/i18n.ts";
export {
  createPromptMessages,
  type PromptEdit,
  type PromptMessages,
  rememberBounded,
} from "./prompt/messages.ts";
export { promptAudience, renderPromptText, renderSummary, type SummaryOptions } from "./prompt/render.ts";
export {
  clipText,
  graphemeLength,
  isRecommended,
  type LengthUnit,
  stripRecommended,
  truncateGraphemes,
} from "./prompt/text.ts";
export {
  buildPromptView,
  type ControlView,
  type FormLimits,
  firstOpenQuestion,
  isForm,
  type OptionView,
  type PromptLayout,
  type PromptView,
  type PromptViewOptions,
  type QuestionView,
  questionTextLines,
  renderViewText,
  type StatusLine,
} from "./prompt/view.ts";
export type { Prompt, PromptOption, PromptQuestion } from "./schema/schema.ts";
