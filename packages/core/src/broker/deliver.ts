import { AskUserError, describeError } from "../model/errors.ts";
import { awaitsSummary, type QuestionRecord, type Target } from "../model/types.ts";
import { messagesFor } from "../prompt/i18n.ts";
import { promptAudience, renderPromptText } from "../prompt/render.ts";
import type { BrokerContext } from "./context.ts";

/**
 * Delivers a stored prompt to its target channel and records the message reference. A channel that
 * is missing or throws ends the question `undeliverable` at once, with the error kept in the record.
 */
export async function deliver(ctx: BrokerContext, record: QuestionRecord): Promise<QuestionRecord> {
  if (!record.target) return record;
  ctx.delivering.add(record.id);
  try {
    return await deliverOnce(ctx, record, record.target);
  } finally {
    ctx.delivering.delete(record.id);
  }
}

async function deliverOnce(
  ctx: BrokerContext,
  record: QuestionRecord,
  target: Target,
): Promise<QuestionRecord> {
  const locale = ctx.locale;
  const channel = ctx.channels.get(target.channel);
  const m = messagesFor(record.locale);
  let ref: { messageId: string; conversation?: string };
  try {
    if (!channel)
      throw new AskUserError("unknown_channel", `No channel named "${target.channel}" is running.`);
    await channel.ready?.(); // a channel still connecting: its own capabilities, not placeholders
    const first = record.prompt.questions[0];
    const single = record.prompt.questions.length === 1 && first?.multiSelect === false;
    // One button per option, plus Other… and Skip: a prompt over the channel's limit goes as text.
    const fits =
      (first?.options.length ?? 0) + 2 <= (channel.capabilities.maxButtons ?? Number.POSITIVE_INFINITY);
    const forName = promptAudience(record, channel.isDirect?.(target.conversation) === true);
    const text = renderPromptText(record.prompt, {
      locale: record.locale,
      expiresAt: record.expiresAt,
      now: ctx.clock.now(),
      ...(forName === undefined ? {} : { forName }),
    });
    ref = await channel.deliver({
      record,
      locale: m.locale,
      text,
      buttons: single && fits && channel.capabilities.buttons,
      ...(forName === undefined ? {} : { forName }),
      // A new record is version 1 (the store's contract): a later one was claimed again by repair, and
      // an attempt before the crash may have reached the platform.
      ...(record.version > 1 ? { resend: true } : {}),
    });
  } catch (error) {
    const result = await ctx.resolve(
      record.id,
      { status: "undeliverable", error: describeError(error) },
      locale,
    );
    ctx.logger.warn(
      { questionId: record.id, channel: target.channel, err: describeError(error) },
      "undeliverable",
    );
    return result.record ?? record;
  }
  const result = await ctx.transition(record.id, locale, (current) => {
    current.deliveries.push({
      channel: target.channel,
      conversation: ref.conversation ?? target.conversation,
      messageId: ref.messageId,
      kind: "prompt",
    });
    if (awaitsSummary(current)) current.claim = ctx.claim();
    else if (current.claim?.by === ctx.instanceId) delete current.claim;
    return current;
  });
  // Answered on another surface while we were delivering: edit the new message at once.
  if (result.ok && awaitsSummary(result.record)) ctx.background(ctx.finalize(result.record));
  // The draft changed while the prompt was on its way (a reply in those milliseconds): show it now.
  const drafted = (r: QuestionRecord) => JSON.stringify(r.draft ?? {});
  if (result.ok && result.record.status === "pending" && drafted(result.record) !== drafted(record))
    ctx.background(ctx.refresh(record.id));
  return result.record ?? record;
}
