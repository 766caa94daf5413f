import { type BrokerContext, describeError } from "./broker-context.ts";
import { AskUserError } from "./errors.ts";
import { messagesFor } from "./i18n.ts";
import { renderPromptText } from "./render.ts";
import { isTerminal, type QuestionRecord } from "./types.ts";

/**
 * Delivers a stored prompt to its target channel and records the message reference. A channel that
 * is missing or throws ends the question `undeliverable` at once, with the error kept in the record.
 */
export async function deliver(ctx: BrokerContext, record: QuestionRecord): Promise<QuestionRecord> {
  const locale = ctx.locale;
  const target = record.target;
  if (!target) return record;
  const channel = ctx.channels.get(target.channel);
  const m = messagesFor(record.locale);
  let ref: { messageId: string; conversation?: string };
  try {
    if (!channel)
      throw new AskUserError("unknown_channel", `No channel named "${target.channel}" is running.`);
    const single = record.prompt.questions.length === 1 && record.prompt.questions[0]?.multiSelect === false;
    const text = renderPromptText(record.prompt, {
      locale: record.locale,
      expiresAt: record.expiresAt,
      now: ctx.clock.now(),
    });
    ref = await channel.deliver({
      record,
      locale: m.locale,
      text,
      buttons: single && channel.capabilities.buttons,
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
    return current;
  });
  // Answered on another surface while we were delivering: edit the new message at once.
  if (result.ok && isTerminal(result.record.status)) ctx.background(ctx.finalize(result.record));
  return result.record ?? record;
}
