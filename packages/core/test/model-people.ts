/**
 * What people do in the chat, in the lifecycle model test: tap a button, open or submit the Other…
 * modal, reply with text the way the prompt suggests.
 */

import { type Action, encodeAction } from "../src/prompt/codec.ts";
import { isForm } from "../src/prompt/view.ts";
import { type Effect, noEffect } from "./model-invariants.ts";
import { type ReplyShape, renderReply } from "./model-prompts.ts";
import {
  ELSEWHERE,
  effectOf,
  expectKind,
  isStranger,
  noteFreeText,
  type Person,
  Step,
} from "./model-steps.ts";
import type { World } from "./model-world.ts";

/** A button tap: an option, or Skip. */
export class Tap extends Step {
  constructor(
    broker: 0 | 1,
    ref: number,
    readonly sub: number,
    readonly option: number | "skip",
    readonly person: Person,
  ) {
    super(broker, ref);
  }
  async act(world: World, ref?: number): Promise<Effect> {
    const question = this.question(world, ref);
    const index = this.sub % question.prompt.questions.length;
    const asked = question.prompt.questions[index];
    const token = question.tokens[index];
    if (!asked || !token) throw new Error("prompt without that question");
    const optionIndex = this.option === "skip" ? -1 : this.option % asked.options.length;
    const action: Action = this.option === "skip" ? { kind: "skip" } : { kind: "option", index: optionIndex };
    const outcome = await world.brokers[this.broker].handleAction({
      channel: "chat",
      conversation: isStranger(this.person) ? ELSEWHERE : question.conversation,
      userId: this.person.userId,
      displayName: this.person.displayName,
      data: encodeAction(token, action),
    });
    if (isStranger(this.person)) expectKind(outcome, ["refused"], String(this));
    else
      expectKind(
        outcome,
        this.option === "skip" ? ["skipped", "refused"] : ["answered", "partial", "refused"],
        String(this),
      );
    const label = asked.options[optionIndex]?.label;
    const gave = new Map(label === undefined ? [] : [[asked.id, [label]]]);
    const final = label !== undefined && !isStranger(this.person) && question.prompt.questions.length === 1;
    return effectOf(question, outcome, gave, final);
  }
  override toString(): string {
    return `tap(b${this.broker}, q${this.ref}.${this.sub}, ${this.option === "skip" ? "Skip" : `option ${this.option}`}, ${this.person.displayName})`;
  }
}

/** The Other… button where the channel opens a modal (`opensModal`), or the modal's submission. */
export class Other extends Step {
  constructor(
    broker: 0 | 1,
    ref: number,
    readonly sub: number,
    readonly text: string | undefined,
    readonly person: Person,
  ) {
    super(broker, ref);
  }
  async act(world: World, ref?: number): Promise<Effect> {
    const question = this.question(world, ref);
    const index = this.sub % question.prompt.questions.length;
    const asked = question.prompt.questions[index];
    const token = question.tokens[index];
    if (!asked || !token) throw new Error("prompt without that question");
    if (this.text !== undefined && !isStranger(this.person)) noteFreeText(question, asked.id, this.text);
    const event = {
      channel: "chat",
      conversation: isStranger(this.person) ? ELSEWHERE : question.conversation,
      userId: this.person.userId,
      displayName: this.person.displayName,
      data: encodeAction(token, { kind: "other" }),
      ...(this.text === undefined ? { opensModal: true } : { text: this.text }),
    };
    const outcome = await world.brokers[this.broker].handleAction(event);
    if (isStranger(this.person)) expectKind(outcome, ["refused"], String(this));
    else
      expectKind(
        outcome,
        this.text === undefined
          ? ["awaiting_text", "refused"]
          : isForm(question.prompt)
            ? ["staged", "refused"]
            : ["answered", "refused"],
        String(this),
      );
    // Staged in a form: the question now holds what the draft says (picks plus this text).
    const value =
      outcome.kind === "staged" ? (outcome.record.draft?.[asked.id] ?? []) : [this.text?.trim() ?? ""];
    const gave = new Map(this.text === undefined ? [] : [[asked.id, value]]);
    // In a form (several questions, multi-select) the text is staged in the draft until Send.
    const final = this.text !== undefined && !isStranger(this.person) && !isForm(question.prompt);
    return effectOf(question, outcome, gave, final);
  }
  override toString(): string {
    const what =
      this.text === undefined ? "Other… opens a modal" : `modal sends ${JSON.stringify(this.text)}`;
    return `other(b${this.broker}, q${this.ref}.${this.sub}, ${what}, ${this.person.displayName})`;
  }
}

/**
 * A text reply, typed as the prompt suggests (or a skip word), to a message the bot sent for the
 * question: the prompt, or one of its confirmations (SPEC §7 rule 1: it goes to that question only).
 */
export class Reply extends Step {
  constructor(
    broker: 0 | 1,
    ref: number,
    readonly shape: ReplyShape | string,
    readonly person: Person,
    readonly locale: string | undefined,
    readonly via: number,
  ) {
    super(broker, ref);
  }
  async act(world: World, ref?: number): Promise<Effect> {
    const question = this.question(world, ref);
    const replyTo = question.replyable[this.via % Math.max(1, question.replyable.length)];
    // An undelivered prompt has no message to reply to.
    if (replyTo === undefined) return noEffect("nothing to reply to");
    const messageId = `u${world.nextMessage++}`;
    const reply = typeof this.shape === "string" ? undefined : renderReply(question.prompt, this.shape);
    const stranger = isStranger(this.person);
    if (reply && !stranger) for (const [id, given] of reply.given) noteFreeText(question, id, given.freeText);
    const outcome = await world.brokers[this.broker].handleReply({
      channel: "chat",
      conversation: stranger ? ELSEWHERE : question.conversation,
      userId: this.person.userId,
      displayName: this.person.displayName,
      text: reply?.text ?? String(this.shape),
      replyTo,
      messageId,
      ...(this.locale === undefined ? {} : { locale: this.locale }),
    });
    const allowed = stranger
      ? ["ignored"]
      : reply
        ? ["answered", "partial", "refused"]
        : ["skipped", "refused"];
    expectKind(outcome, allowed, `${this} typing ${JSON.stringify(reply?.text ?? this.shape)}`);
    const answer = world.platform.answerTo.get(messageId);
    if (answer !== undefined) question.replyable.push(answer);
    const gave = new Map([...(reply?.given ?? [])].map(([id, given]) => [id, given.values]));
    return effectOf(question, outcome, gave, reply?.complete === true && !stranger);
  }
  override toString(): string {
    const what =
      typeof this.shape === "string"
        ? JSON.stringify(this.shape)
        : `mask ${this.shape.mask} by ${this.shape.keyBy}`;
    const to = this.via === 0 ? "the prompt" : `message ${this.via}`;
    return `reply(b${this.broker}, q${this.ref}, ${what} to ${to}, ${this.person.displayName})`;
  }
}
