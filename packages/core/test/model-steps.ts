/**
 * The steps of the lifecycle model test: a question is asked, an operator answers, skips or cancels,
 * time passes, a process restarts. What people do in the chat is in `model-people.ts`. Each step's
 * `act` does it and says what its caller was told (an `Effect`).
 */
import type fc from "fast-check";
import type { InboundOutcome } from "../src/broker/inbound.ts";
import { AskUserError } from "../src/model/errors.ts";
import { applyEffects, checkInvariants, type Effect, noEffect } from "./model-invariants.ts";
import { type Pick, resolvePick } from "./model-prompts.ts";
import type { ModelQuestion, World } from "./model-world.ts";

/** People in the chat; the stranger writes from another conversation. */
export const PEOPLE = [
  { userId: "u-ann", displayName: "@ann" },
  { userId: "u-bob", displayName: "@bob" },
  { userId: "u-eve", displayName: "@eve", stranger: true },
] as const;
export type Person = (typeof PEOPLE)[number];
/** The stranger writes from another conversation: `answerers: "conversation"` refuses her. */
export const ELSEWHERE = "room-elsewhere";
const OPERATOR = { channel: "web", userId: "operator", displayName: "Operator" };

export const isStranger = (person: Person) => "stranger" in person;

export function expectKind(outcome: InboundOutcome, allowed: readonly string[], what: string): void {
  if (!allowed.includes(outcome.kind)) {
    throw new Error(`${what}: unexpected outcome ${outcome.kind}: ${"text" in outcome ? outcome.text : ""}`);
  }
}

export function noteFreeText(question: ModelQuestion, id: string, text: string | undefined): void {
  if (text === undefined) return;
  const set = question.freeTexts.get(id) ?? new Set<string>();
  set.add(text.trim());
  question.freeTexts.set(id, set);
}

export function effectOf(
  question: ModelQuestion,
  outcome: InboundOutcome,
  gave: Map<string, string[]>,
  final: boolean,
): Effect {
  // SPEC §7 rule 1: a reply to a question's message, or a tap on its button, never goes to another one.
  const about = "record" in outcome ? outcome.record?.id : undefined;
  if (about !== undefined && about !== question.id) {
    throw new Error(`an event for question ${question.id} went to question ${about}`);
  }
  const win = outcome.kind === "answered" ? "answered" : outcome.kind === "skipped" ? "skipped" : undefined;
  const recorded = outcome.kind === "answered" || outcome.kind === "partial" || outcome.kind === "staged";
  return { question, gave, recorded, win, final, outcome: outcome.kind };
}

/** One thing that happens; `act` does it and says what the caller was told. */
export abstract class Step implements fc.AsyncCommand<World, World> {
  constructor(
    readonly broker: 0 | 1,
    readonly ref: number,
  ) {}
  protected readonly needsQuestion: boolean = true;
  check(world: Readonly<World>): boolean {
    return !this.needsQuestion || world.questions.length > 0;
  }
  async run(_model: World, world: World): Promise<void> {
    applyEffects([await this.act(world)]);
    await checkInvariants(world);
  }
  /** `ref` overrides the question (a pair racing on one question). */
  abstract act(world: World, ref?: number): Promise<Effect>;
  protected question(world: World, ref = this.ref): ModelQuestion {
    const question = world.questions[ref % world.questions.length];
    if (!question) throw new Error("no question yet");
    return question;
  }
}

/** The agent asks: the broker stores and delivers the prompt; the agent waits for the result. */
export class Ask extends Step {
  protected override readonly needsQuestion = false;
  constructor(
    broker: 0 | 1,
    readonly input: unknown,
    readonly conversation: string,
  ) {
    super(broker, 0);
  }
  async act(world: World): Promise<Effect> {
    const broker = world.brokers[this.broker];
    let record: Awaited<ReturnType<typeof broker.create>>;
    try {
      record = await broker.create(this.input, {
        target: { channel: "chat", conversation: this.conversation },
      });
    } catch (error) {
      // Racing a restart of the same broker: a closed broker takes no new questions.
      if (error instanceof AskUserError && error.code === "closed") return noEffect("closed");
      throw error;
    }
    const prompt = record.deliveries.find((d) => d.kind === "prompt")?.messageId;
    const question: ModelQuestion = {
      id: record.id,
      prompt: record.prompt,
      tokens: record.tokens,
      conversation: this.conversation,
      messageId: prompt,
      replyable: prompt === undefined ? [] : [prompt],
      confirmed: new Map(),
      freeTexts: new Map(),
      wins: { answered: 0, skipped: 0, cancelled: 0 },
      results: [],
    };
    world.questions.push(question);
    const waiting = { broker, question: record.id, settled: false };
    world.waits.push(waiting);
    broker
      .wait(record.id)
      .then(
        (result) => question.results.push(result),
        (error: unknown) => {
          if (!(error instanceof AskUserError && error.code === "closed"))
            world.violations.push(`wait failed: ${error}`);
        },
      )
      .finally(() => {
        waiting.settled = true;
      });
    return noEffect(record.status);
  }
  override toString(): string {
    const shape = (this.input as { questions: Array<{ multiSelect: boolean }> }).questions
      .map((q) => (q.multiSelect ? "multi" : "single"))
      .join("+");
    return `ask(b${this.broker}, ${shape} in ${this.conversation})`;
  }
}

/** The web panel / HTTP API / MCP: answer with full valid answers, skip, or cancel. */
export class Operator extends Step {
  constructor(
    broker: 0 | 1,
    ref: number,
    readonly action: "answer" | "skip" | "cancel",
    readonly picks: [Pick, Pick, Pick],
  ) {
    super(broker, ref);
  }
  async act(world: World, ref?: number): Promise<Effect> {
    const question = this.question(world, ref);
    const broker = world.brokers[this.broker];
    const gave = new Map<string, string[]>();
    let outcome: Awaited<ReturnType<typeof broker.answer>>;
    if (this.action === "answer") {
      const raw: Record<string, string[]> = {};
      question.prompt.questions.forEach((asked, index) => {
        const resolved = resolvePick(asked, this.picks[index] ?? this.picks[0]);
        noteFreeText(question, asked.id, resolved.freeText);
        raw[asked.id] = resolved.raw;
        gave.set(asked.id, resolved.values);
      });
      outcome = await broker.answer(question.id, raw, OPERATOR);
    } else {
      outcome = await (this.action === "skip"
        ? broker.skip(question.id, OPERATOR)
        : broker.cancel(question.id, OPERATOR));
    }
    if (!outcome.ok && outcome.reason === "invalid")
      throw new Error(`${this}: refused as invalid: ${outcome.message}`);
    const win = !outcome.ok
      ? undefined
      : this.action === "answer"
        ? "answered"
        : this.action === "skip"
          ? "skipped"
          : "cancelled";
    const effect = {
      question,
      gave,
      recorded: outcome.ok && this.action === "answer",
      win,
      final: this.action === "answer",
    } as const;
    return { ...effect, outcome: outcome.ok ? "ok" : outcome.reason };
  }
  override toString(): string {
    return `operator-${this.action}(b${this.broker}, q${this.ref})`;
  }
}

/** Time passes; due deadlines fire. */
export class Advance extends Step {
  protected override readonly needsQuestion = false;
  constructor(readonly ms: number) {
    super(0, 0);
  }
  async act(world: World): Promise<Effect> {
    await world.clock.advance(this.ms);
    return noEffect("advanced");
  }
  override toString(): string {
    return `advance(${this.ms / 1000} s)`;
  }
}

/** A process restart: the broker closes, a new one starts on the same store and recovers. */
export class Restart extends Step {
  protected override readonly needsQuestion = false;
  async act(world: World): Promise<Effect> {
    const old = world.brokers[this.broker];
    const fresh = world.startBroker();
    world.brokers[this.broker] = fresh;
    await old.close();
    world.closed.add(old);
    await fresh.ready;
    return noEffect("restarted");
  }
  override toString(): string {
    return `restart(b${this.broker})`;
  }
}
