import type { BrokerContext } from "./broker-context.ts";
import { decodeAction } from "./codec.ts";
import { messagesFor } from "./i18n.ts";
import { interpretReply } from "./interpret.ts";
import { checkAnswerer, type Refusal, type RefusalReason, refusalForStatus } from "./policy.ts";
import { renderAnswers, renderQuestionLines } from "./render.ts";
import type { Actor, Answers, QuestionRecord } from "./types.ts";

/** A button tap (or a modal submission, with `text`) from a channel. */
export interface ActionEvent {
  channel: string;
  conversation: string;
  userId: string;
  displayName?: string;
  /** The button payload (`encodeAction`). */
  data: string;
  /** Free text submitted for an Other… action (Discord/Slack modal). */
  text?: string;
  locale?: string;
}

/** A text message from a channel. */
export interface ReplyEvent {
  channel: string;
  conversation: string;
  userId: string;
  displayName?: string;
  text: string;
  /** The message this one replies to (Telegram reply_to_message, Slack thread, Discord reference). */
  replyTo?: string;
  /** This message's own id, so confirmations can reply to it. */
  messageId?: string;
  locale?: string;
}

/** What came of an inbound event. `text` is the sentence to show the person, in their locale. */
export type InboundOutcome =
  | { kind: "ignored" }
  | { kind: "answered"; record: QuestionRecord; text: string }
  | { kind: "partial"; record: QuestionRecord; text: string }
  | { kind: "skipped"; record: QuestionRecord; text: string }
  | { kind: "awaiting_text"; record: QuestionRecord; text: string; placeholder: string }
  | { kind: "invalid"; record: QuestionRecord; text: string }
  | { kind: "ambiguous"; records: QuestionRecord[]; text: string }
  | { kind: "refused"; reason: RefusalReason; record: QuestionRecord | undefined; text: string };

function refused(refusal: Refusal, record: QuestionRecord | undefined): InboundOutcome {
  return { kind: "refused", reason: refusal.reason, record, text: refusal.message };
}

function actorOf(event: ActionEvent | ReplyEvent): Actor {
  const actor: Actor = { channel: event.channel, userId: event.userId };
  if (event.displayName !== undefined) actor.displayName = event.displayName;
  return actor;
}

/** Checks who and when; expires an overdue record on the spot. Returns a refusal or undefined. */
async function gate(
  ctx: BrokerContext,
  record: QuestionRecord,
  event: ActionEvent | ReplyEvent,
  locale: string,
): Promise<Refusal | undefined> {
  const who = checkAnswerer(record, event, locale);
  if (who) return who;
  const status = refusalForStatus(record, locale);
  if (status) return status;
  if (ctx.clock.now() >= record.expiresAt) {
    const result = await ctx.resolve(record.id, { status: "expired" }, locale);
    return result.ok ? refusalForStatus(result.record, locale) : result.refusal;
  }
  return undefined;
}

/**
 * Records answers for some questions: resolves the record when every question is answered, else keeps
 * a draft (the text stepper).
 */
async function applyAnswers(
  ctx: BrokerContext,
  record: QuestionRecord,
  answers: Answers,
  event: ActionEvent | ReplyEvent,
  locale: string,
): Promise<InboundOutcome> {
  const m = messagesFor(locale);
  const complete = record.prompt.questions.every((q) => answers[q.id] !== undefined);
  if (complete) {
    const result = await ctx.resolve(
      record.id,
      { status: "answered", answers, actor: actorOf(event) },
      locale,
    );
    if (!result.ok) return refused(result.refusal, result.record);
    return {
      kind: "answered",
      record: result.record,
      text: m.recorded(renderAnswers(record.prompt, answers, locale)),
    };
  }
  const result = await ctx.transition(record.id, locale, (current) => {
    const refusal = refusalForStatus(current, locale);
    if (refusal) return refusal;
    current.draft = answers;
    delete current.awaitingText;
    return current;
  });
  if (!result.ok) return refused(result.refusal, result.record);
  const missing = record.prompt.questions.flatMap((q, index) =>
    answers[q.id] === undefined ? renderQuestionLines(q, index + 1) : [],
  );
  const text = m.recordedPartial(renderAnswers(record.prompt, answers, locale), `\n${missing.join("\n")}`);
  return { kind: "partial", record: result.record, text };
}

/** Handles a button tap or a modal submission (see `AskUserBroker.handleAction`). */
export async function handleAction(ctx: BrokerContext, event: ActionEvent): Promise<InboundOutcome> {
  const decoded = decodeAction(event.data);
  if (!decoded) return { kind: "ignored" };
  const locale = event.locale ?? ctx.locale;
  const m = messagesFor(locale);
  const record = await ctx.store.findByToken(decoded.token);
  if (!record) return refused({ reason: "unknown", message: m.refusedUnknown }, undefined);
  const refusal = await gate(ctx, record, event, locale);
  if (refusal) return refused(refusal, record);
  const index = record.tokens.indexOf(decoded.token);
  const question = record.prompt.questions[index];
  if (!question) return refused({ reason: "unknown", message: m.refusedUnknown }, record);
  const action = decoded.action;
  if (action.kind === "skip") {
    const result = await ctx.resolve(record.id, { status: "skipped", actor: actorOf(event) }, locale);
    return result.ok
      ? { kind: "skipped", record: result.record, text: m.skipped }
      : refused(result.refusal, result.record);
  }
  if (action.kind === "other" && event.text === undefined) {
    const result = await ctx.transition(record.id, locale, (current) => {
      const again = refusalForStatus(current, locale);
      if (again) return again;
      current.awaitingText = { ...actorOf(event), questionIndex: index };
      return current;
    });
    if (!result.ok) return refused(result.refusal, result.record);
    return {
      kind: "awaiting_text",
      record: result.record,
      text: m.typeYourAnswer,
      placeholder: m.yourAnswer,
    };
  }
  let value: string;
  if (action.kind === "other") {
    value = (event.text ?? "").trim();
    if (value === "") return { kind: "invalid", record, text: m.invalidEmpty };
  } else {
    const option = question.options[action.index];
    if (!option) return refused({ reason: "invalid", message: m.refusedUnknown }, record);
    value = option.label;
  }
  return applyAnswers(ctx, record, { ...record.draft, [question.id]: [value] }, event, locale);
}

/** Routes a text message to a question (SPEC §7) and interprets it. */
async function route(ctx: BrokerContext, event: ReplyEvent, locale: string): Promise<InboundOutcome> {
  const m = messagesFor(locale);
  if (event.replyTo !== undefined) {
    const record = await ctx.store.findByMessage(event.channel, event.conversation, event.replyTo);
    if (record) return answerWithText(ctx, record, event, locale);
  }
  const now = ctx.clock.now();
  const candidates = (
    await ctx.store.list({ status: "pending", channel: event.channel, conversation: event.conversation })
  ).filter((record) => record.expiresAt > now && checkAnswerer(record, event, locale) === undefined);
  const awaiting = candidates.filter((r) => r.awaitingText?.userId === event.userId);
  const only = awaiting.length === 1 ? awaiting[0] : candidates.length === 1 ? candidates[0] : undefined;
  if (only) return answerWithText(ctx, only, event, locale);
  if (candidates.length === 0) return { kind: "ignored" };
  const list = candidates
    .map((record, index) => {
      const first = record.prompt.questions[0];
      return `${index + 1}) ${first ? `${first.header}: ${first.question}` : record.id}`;
    })
    .join("\n");
  return { kind: "ambiguous", records: candidates, text: m.ambiguous(list) };
}

async function answerWithText(
  ctx: BrokerContext,
  record: QuestionRecord,
  event: ReplyEvent,
  locale: string,
): Promise<InboundOutcome> {
  const refusal = await gate(ctx, record, event, locale);
  if (refusal) return refused(refusal, record);
  const awaiting = record.awaitingText;
  const question = awaiting ? record.prompt.questions[awaiting.questionIndex] : undefined;
  if (awaiting && question && awaiting.userId === event.userId && event.text.trim() !== "") {
    return applyAnswers(ctx, record, { ...record.draft, [question.id]: [event.text.trim()] }, event, locale);
  }
  const reading = interpretReply(record.prompt, event.text, record.draft, { locale });
  if (reading.kind === "invalid") return { kind: "invalid", record, text: reading.message };
  if (reading.kind === "skip") {
    const result = await ctx.resolve(record.id, { status: "skipped", actor: actorOf(event) }, locale);
    const m = messagesFor(locale);
    return result.ok
      ? { kind: "skipped", record: result.record, text: m.skipped }
      : refused(result.refusal, result.record);
  }
  return applyAnswers(ctx, record, reading.answers, event, locale);
}

/**
 * Handles a text message: routes and interprets it, then answers the person through the channel's
 * `notify` (refusals privately where the channel can). Messages that answer nothing are `ignored`.
 */
export async function handleReply(ctx: BrokerContext, event: ReplyEvent): Promise<InboundOutcome> {
  const locale = event.locale ?? ctx.locale;
  const outcome = await route(ctx, event, locale);
  if (outcome.kind === "ignored") return outcome;
  const channel = ctx.channels.get(event.channel);
  if (!channel) return outcome;
  const notice = {
    conversation: event.conversation,
    text: outcome.text,
    locale,
    userId: event.userId,
    private: outcome.kind === "refused",
    ...(event.messageId === undefined ? {} : { replyTo: event.messageId }),
  };
  try {
    const ref = await channel.notify(notice);
    if (ref && outcome.kind === "partial")
      await rememberNotice(ctx, outcome.record, event, ref.messageId, locale);
  } catch (error) {
    ctx.logger.warn(
      { channel: event.channel, conversation: event.conversation, err: String(error) },
      "notice failed",
    );
  }
  return outcome;
}

/** Keeps a follow-up message (the text stepper) so that replies to it route to the question. */
async function rememberNotice(
  ctx: BrokerContext,
  record: QuestionRecord,
  event: ReplyEvent,
  messageId: string,
  locale: string,
): Promise<void> {
  await ctx.transition(record.id, locale, (current) => {
    current.deliveries.push({
      channel: event.channel,
      conversation: event.conversation,
      messageId,
      kind: "notice",
    });
    return current;
  });
}
