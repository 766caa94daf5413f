import { describeError } from "../model/errors.ts";
import type { Actor, QuestionRecord } from "../model/types.ts";
import { decodeAction } from "../prompt/codec.ts";
import { messagesFor } from "../prompt/i18n.ts";
import { renderAnswers, renderQuestionLines } from "../prompt/render.ts";
import { isForm } from "../prompt/view.ts";
import { interpretReply } from "../reply/interpret.ts";
import type { BrokerContext, Transition } from "./context.ts";
import { applyFormStep, stagedText } from "./form.ts";
import type { ActionEvent, InboundOutcome, ReplyEvent } from "./inbound-types.ts";
import { checkAnswerer, type Refusal, refusalForStatus } from "./policy.ts";
import { findRepliedTo } from "./reply-gap.ts";
import { applyAnswers, finish } from "./transitions.ts";

export type { ActionEvent, InboundOutcome, MessageRef, ReplyEvent } from "./inbound-types.ts";

/** The locale of the question an outcome is about, if there is one. */
function localeOf(outcome: InboundOutcome): string | undefined {
  return "record" in outcome ? outcome.record?.locale : undefined;
}

/** Whether the question's target is a one-to-one chat with the bot, as its channel says. */
function isDirect(ctx: BrokerContext, record: QuestionRecord): boolean {
  const target = record.target;
  if (!target) return false;
  return ctx.channels.get(target.channel)?.isDirect?.(target.conversation) === true;
}

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
  const who = checkAnswerer(record, event, locale, isDirect(ctx, record));
  if (who) return who;
  const status = refusalForStatus(record, locale);
  if (status) return status;
  if (ctx.clock.now() >= record.expiresAt) {
    const result = await ctx.resolve(record.id, { status: "expired" }, locale);
    return result.ok ? refusalForStatus(result.record, locale) : result.refusal;
  }
  return undefined;
}

/** What a person's answer did, told in their locale: recorded, still needed, skipped, or refused. */
function outcomeOf(result: Transition, locale: string): InboundOutcome {
  if (!result.ok) {
    if (result.refusal.reason === "invalid" && result.record)
      return { kind: "invalid", record: result.record, text: result.refusal.message };
    return refused(result.refusal, result.record);
  }
  const m = messagesFor(locale);
  const record = result.record;
  if (record.status === "skipped") return { kind: "skipped", record, text: m.skipped };
  if (record.status === "answered") {
    return {
      kind: "answered",
      record,
      text: m.recorded(renderAnswers(record.prompt, record.answers ?? {}, locale)),
    };
  }
  const draft = record.draft ?? {};
  const missing = record.prompt.questions.flatMap((q, index) =>
    draft[q.id] === undefined ? renderQuestionLines(q, index + 1) : [],
  );
  const text = m.recordedPartial(renderAnswers(record.prompt, draft, locale), missing.join("\n"));
  return { kind: "partial", record, text };
}

/**
 * Times in refusals in the reader's own time zone where the channel can show them (`formatTime`):
 * "This question expired at <t:…:t>" on Discord instead of UTC.
 */
function withLocalTimes(ctx: BrokerContext, channelName: string, outcome: InboundOutcome, locale: string) {
  const formatTime = ctx.channels.get(channelName)?.formatTime;
  if (!formatTime || outcome.kind !== "refused" || outcome.reason !== "expired" || !outcome.record)
    return outcome;
  const text = messagesFor(locale).refusedExpired(formatTime(outcome.record.expiresAt, locale));
  return { ...outcome, text };
}

/** Handles a button tap or a modal submission (see `AskUserBroker.handleAction`). */
export async function handleAction(ctx: BrokerContext, event: ActionEvent): Promise<InboundOutcome> {
  const outcome = await takeAction(ctx, event);
  return withLocalTimes(ctx, event.channel, outcome, event.locale ?? localeOf(outcome) ?? ctx.locale);
}

async function takeAction(ctx: BrokerContext, event: ActionEvent): Promise<InboundOutcome> {
  const decoded = decodeAction(event.data);
  if (!decoded) return { kind: "ignored" };
  const record = await ctx.store.findByToken(decoded.token);
  if (!record)
    return refused(
      { reason: "unknown", message: messagesFor(event.locale ?? ctx.locale).refusedUnknown },
      undefined,
    );
  // The person's own locale where the platform gives it, else the question's (set by its creator).
  const locale = event.locale ?? record.locale;
  const m = messagesFor(locale);
  const refusal = await gate(ctx, record, event, locale);
  if (refusal) return refused(refusal, record);
  const index = record.tokens.indexOf(decoded.token);
  const question = record.prompt.questions[index];
  if (!question) return refused({ reason: "unknown", message: m.refusedUnknown }, record);
  const action = decoded.action;
  const actor = actorOf(event);
  if (action.kind === "skip") {
    return outcomeOf(await ctx.resolve(record.id, { status: "skipped", actor }, locale), locale);
  }
  if (action.kind === "other" && event.text === undefined) {
    const awaiting = { kind: "awaiting_text", text: m.typeYourAnswer, placeholder: m.yourAnswer } as const;
    // A modal holds the answer until it is submitted: nothing to store, nothing left if it is dismissed.
    if (event.opensModal) return { ...awaiting, record };
    const result = await ctx.act(record.id, locale, (current) => {
      current.awaitingText = { ...actor, questionIndex: index };
      return current;
    });
    return result.ok ? { ...awaiting, record: result.record } : refused(result.refusal, result.record);
  }
  if (action.kind === "view") return { kind: "staged", record, questionIndex: index, text: "" };
  const formStep = action.kind === "pick" || action.kind === "choose" || action.kind === "submit";
  if (formStep || (action.kind === "other" && isForm(record.prompt))) {
    const step = {
      questionIndex: index,
      action,
      actor,
      locale,
      ...(event.values === undefined ? {} : { values: event.values }),
      ...(event.text === undefined ? {} : { text: event.text }),
    };
    const result = await ctx.act(record.id, locale, (current, now) => applyFormStep(current, step, now));
    if (!result.ok || result.record.status !== "pending") return outcomeOf(result, locale);
    return {
      kind: "staged",
      record: result.record,
      questionIndex: index,
      text: stagedText(result.record, index, locale),
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
  const result = await ctx.act(record.id, locale, (current, now) =>
    applyAnswers(current, { ...current.draft, [question.id]: [value] }, actor, now),
  );
  return outcomeOf(result, locale);
}

/** Routes a text message to a question (SPEC §7) and interprets it. */
async function route(ctx: BrokerContext, event: ReplyEvent, locale: string): Promise<InboundOutcome> {
  const m = messagesFor(locale);
  const repliedTo = await findRepliedTo(ctx, event);
  if (repliedTo) return answerWithText(ctx, repliedTo, event, event.locale ?? repliedTo.locale);
  const now = ctx.clock.now();
  const candidates = (
    await ctx.store.list({ status: "pending", channel: event.channel, conversation: event.conversation })
  ).filter(
    (record) =>
      record.expiresAt > now && checkAnswerer(record, event, locale, isDirect(ctx, record)) === undefined,
  );
  const awaiting = candidates.filter((r) => r.awaitingText?.userId === event.userId);
  const only = awaiting.length === 1 ? awaiting[0] : candidates.length === 1 ? candidates[0] : undefined;
  if (only) return answerWithText(ctx, only, event, event.locale ?? only.locale);
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
  const actor = actorOf(event);
  // Read against the record as stored at the moment of writing: its draft and Other… state.
  let staged: number | undefined;
  const result = await ctx.act(record.id, locale, (current, now) => {
    staged = undefined;
    const awaiting = current.awaitingText;
    const question = awaiting ? current.prompt.questions[awaiting.questionIndex] : undefined;
    const typed = event.text.trim();
    if (awaiting && question && awaiting.userId === event.userId && typed !== "") {
      // In a form, Other… text joins the draft like a tap would (Send answers); else it is the answer.
      if (isForm(current.prompt)) {
        const step = {
          questionIndex: awaiting.questionIndex,
          action: { kind: "other" } as const,
          text: typed,
        };
        staged = awaiting.questionIndex;
        return applyFormStep(current, { ...step, actor, locale }, now);
      }
      return applyAnswers(current, { ...current.draft, [question.id]: [typed] }, actor, now);
    }
    const reading = interpretReply(current.prompt, event.text, current.draft, { locale });
    if (reading.kind === "invalid") return { reason: "invalid", message: reading.message };
    if (reading.kind === "skip") return finish(current, { status: "skipped", actor }, now);
    return applyAnswers(current, reading.answers, actor, now);
  });
  if (staged !== undefined && result.ok && result.record.status === "pending")
    return {
      kind: "staged",
      record: result.record,
      questionIndex: staged,
      text: stagedText(result.record, staged, locale),
    };
  return outcomeOf(result, locale);
}

/**
 * Handles a text message: routes and interprets it, then answers the person through the channel's
 * `notify` (refusals privately where the channel can). Messages that answer nothing are `ignored`.
 */
export async function handleReply(ctx: BrokerContext, event: ReplyEvent): Promise<InboundOutcome> {
  const routed = await route(ctx, event, event.locale ?? ctx.locale);
  const locale = event.locale ?? localeOf(routed) ?? ctx.locale;
  const outcome = withLocalTimes(ctx, event.channel, routed, locale);
  if (outcome.kind === "ignored") return outcome;
  const channel = ctx.channels.get(event.channel);
  if (!channel) return outcome;
  const notice = {
    conversation: event.conversation,
    text: outcome.text,
    locale,
    userId: event.userId,
    private: outcome.kind === "refused",
    purpose: outcome.kind,
    ...(event.messageId === undefined ? {} : { replyTo: event.messageId }),
  };
  try {
    const ref = await channel.notify(notice);
    const record = "record" in outcome ? outcome.record : undefined;
    if (ref && record) {
      await ctx.remember(record.id, {
        channel: event.channel,
        conversation: ref.conversation ?? event.conversation,
        messageId: ref.messageId,
      });
    }
  } catch (error) {
    ctx.logger.warn(
      { channel: event.channel, conversation: event.conversation, err: describeError(error) },
      "notice failed",
    );
  }
  return outcome;
}
