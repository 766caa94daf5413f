import { AskUserError, describeError, InvalidAskUserInputError } from "../model/errors.ts";
import { randomBase64Url } from "../model/random.ts";
import {
  type AnswererPolicy,
  type AskUserEvent,
  type AskUserResult,
  isTerminal,
  type QuestionRecord,
  resultOf,
} from "../model/types.ts";
import { systemClock } from "../ports/clock.ts";
import { consoleLogger } from "../ports/logger.ts";
import { messagesFor, pickLocale } from "../prompt/i18n.ts";
import { checkAnswers } from "../schema/answers.ts";
import { normalizeAskUserInput } from "../schema/normalize.ts";
import type { Prompt } from "../schema/schema.ts";
import { BrokerContext } from "./context.ts";
import { newRecord } from "./create.ts";
import { Deadlines } from "./deadlines.ts";
import { deliver } from "./deliver.ts";
import { handleAction, handleReply } from "./inbound.ts";
import { Liveness } from "./liveness.ts";
import { outcomeOf } from "./outcome.ts";
import { Repairer } from "./repair.ts";
import { stageDraft } from "./stage.ts";
import type { AskOptions, AskUserBroker, AskUserOptions } from "./types.ts";

export type {
  AskOptions,
  AskUserBroker,
  AskUserOptions,
  StageActor,
  StageRequest,
  TransitionOutcome,
} from "./types.ts";

const DEFAULT_CLAIM_MS = 30_000;
const DEFAULT_REPAIR_INTERVAL_MS = 30_000;

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function policyOf(value: AskUserOptions["answerers"]): AnswererPolicy {
  if (value === undefined || value === "creator") return { kind: "creator" };
  if (value === "conversation") return { kind: "conversation" };
  return { kind: "users", userIds: [...value.userIds] };
}

/**
 * Creates the broker.
 *
 * @example
 * const askUser = createAskUser({ store: createMemoryStore(), channels: [createTextChannel(sms)] });
 * const result = await askUser.ask(
 *   { questions: [{ id: "env", header: "Deploy", question: "Where to?", options: [{ label: "Staging (Recommended)" }, { label: "Production" }] }] },
 *   { target: { channel: "sms", conversation: "+4915112345678" } },
 * );
 */
export function createAskUser(options: AskUserOptions): AskUserBroker {
  const clock = options.clock ?? systemClock;
  const locale = pickLocale(options.locale);
  const channels = new Map(options.channels.map((channel) => [channel.name, channel]));
  const ctx = new BrokerContext(
    options.store,
    clock,
    channels,
    locale,
    options.logger ?? consoleLogger,
    options.instanceId ?? randomBase64Url(9),
    options.claimMs ?? DEFAULT_CLAIM_MS,
  );
  const liveness = new Liveness(ctx);
  const repairer = new Repairer(ctx, options.repairIntervalMs ?? DEFAULT_REPAIR_INTERVAL_MS, liveness);
  const listeners = new Set<(event: AskUserEvent) => void>();
  const waiters = new Map<string, Set<(record: QuestionRecord | Error) => void>>();
  /** `ask()` calls still storing or delivering their question: `close()` rejects them at once. */
  const asking = new Set<(error: Error) => void>();
  let closed = false;
  const closedError = () =>
    new AskUserError("closed", "The broker was closed while waiting; the question stays pending.");

  const deadlines = new Deadlines(clock, (id) => {
    ctx.background(ctx.resolve(id, { status: "expired" }, locale));
  });

  const unsubscribe = options.store.subscribe(({ record, previousStatus }) => {
    ctx.recent.remember(record);
    const type =
      previousStatus === undefined
        ? "question.requested"
        : previousStatus === "pending" && isTerminal(record.status)
          ? "question.resolved"
          : "question.updated";
    if (previousStatus === undefined && record.status === "pending")
      deadlines.add(record.id, record.expiresAt);
    if (isTerminal(record.status)) deadlines.remove(record.id); // no entry kept until the old deadline
    for (const listener of listeners) {
      try {
        listener({ type, record });
      } catch (error) {
        ctx.logger.error({ questionId: record.id, err: describeError(error) }, "event listener failed");
      }
    }
    if (isTerminal(record.status)) for (const waiter of waiters.get(record.id) ?? []) waiter(record);
  });

  const ready = (async () => {
    await liveness.first;
    const pending = await options.store.list({ status: "pending" });
    const now = clock.now();
    for (const record of pending) {
      if (record.expiresAt <= now) await ctx.resolve(record.id, { status: "expired" }, locale);
      else deadlines.add(record.id, record.expiresAt);
    }
    await repairer.sweep();
  })();
  ready.catch((error: unknown) => ctx.logger.error({ err: describeError(error) }, "recovery failed"));

  /** Stores and delivers an already normalised prompt (`ask` normalises once, before its abort check). */
  async function createRecord(prompt: Prompt, askOptions: AskOptions): Promise<QuestionRecord> {
    if (closed) throw new AskUserError("closed", "The broker is closed.");
    await liveness.first; // its claim must be one that siblings can see is alive
    const record = await newRecord(
      ctx,
      prompt,
      askOptions,
      policyOf(askOptions.answerers ?? options.answerers),
    );
    await options.store.create(record);
    // From here on the question exists: an abort cancels it at once, even while it is being delivered.
    const signal = askOptions.signal;
    const onAbort = () => ctx.background(broker.cancel(record.id));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    // Background work until the message id is recorded: close() waits for it (no orphan message).
    const done = ctx.hold();
    try {
      return await deliver(ctx, record);
    } finally {
      done();
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** `work`, or an `AskUserError("closed")` as soon as the broker closes (the work goes on). */
  function untilClosed<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (closed) {
        work.catch(() => undefined);
        reject(closedError());
        return;
      }
      asking.add(reject);
      work.then(resolve, reject).finally(() => asking.delete(reject));
    });
  }

  const broker: AskUserBroker = {
    ready,
    create: async (input, askOptions = {}) => createRecord(normalizeAskUserInput(input), askOptions),
    wait(id, waitOptions = {}) {
      const signal = waitOptions.signal;
      return new Promise<AskUserResult>((resolve, reject) => {
        if (closed) {
          reject(closedError());
          return;
        }
        let settled = false;
        const done = (record: QuestionRecord | Error) => {
          const result = record instanceof Error ? undefined : resultOf(record);
          if (settled || !(result || record instanceof Error)) return;
          settled = true;
          waiters.get(id)?.delete(done);
          if (waiters.get(id)?.size === 0) waiters.delete(id);
          signal?.removeEventListener("abort", onAbort);
          if (result) resolve(result);
          else reject(record);
        };
        const onAbort = () => {
          broker.cancel(id).then(
            (outcome) => outcome.record && done(outcome.record),
            (error: unknown) => done(toError(error)),
          );
        };
        const set = waiters.get(id) ?? new Set();
        set.add(done);
        waiters.set(id, set);
        signal?.addEventListener("abort", onAbort, { once: true });
        options.store.get(id).then(
          (record) => {
            if (!record) {
              done(new AskUserError("unknown_question", `No question with id ${id}.`));
            } else if (isTerminal(record.status)) {
              done(record);
            } else if (closed) {
              done(closedError()); // closed while the record was read
            } else {
              deadlines.add(record.id, record.expiresAt);
              if (signal?.aborted) onAbort();
            }
          },
          (error: unknown) => done(toError(error)),
        );
      });
    },
    async ask(input, askOptions = {}) {
      const { signal } = askOptions;
      const prompt = normalizeAskUserInput(input);
      if (signal?.aborted) return { status: "no_answer", reason: "cancelled" };
      const record = await untilClosed(createRecord(prompt, askOptions));
      return broker.wait(record.id, signal ? { signal } : {});
    },
    handleReply: (event) => handleReply(ctx, event),
    handleAction: (event) => handleAction(ctx, event),
    async rememberMessage(questionId, message) {
      const { channel, conversation, messageId } = message;
      const known = await options.store.get(questionId);
      if (known) await ctx.remember(questionId, { channel, conversation, messageId });
    },
    async answer(id, answers, actor) {
      // The record last heard written, else the stored one: its prompt (which never changes) checks
      // the answers, and it is the first attempt's (no second read); a write in between fails its
      // compare-and-set and the next attempt reads the record again.
      const guess = ctx.recent.guess(id);
      const record = guess ?? (await options.store.get(id));
      if (!record) return { ok: false, reason: "unknown", message: messagesFor(locale).refusedUnknown };
      const checked = checkAnswers(record.prompt, answers);
      if (!checked.ok) {
        // A refusal says what is stored: a guess is read again (the record may be gone).
        const stored = guess ? await options.store.get(id) : record;
        if (!stored) return { ok: false, reason: "unknown", message: messagesFor(locale).refusedUnknown };
        const error = new InvalidAskUserInputError(checked.issues);
        return {
          ok: false,
          reason: "invalid",
          message: error.message,
          issues: checked.issues,
          record: stored,
        };
      }
      const resolution = { status: "answered", answers: checked.answers, actor } as const;
      return outcomeOf(await ctx.resolve(id, resolution, locale, record, guess !== undefined));
    },
    stage: (id, request, actor) => stageDraft(ctx, id, request, actor),
    async skip(id, actor) {
      return outcomeOf(await ctx.resolve(id, { status: "skipped", actor }, locale));
    },
    async cancel(id, actor) {
      return outcomeOf(
        await ctx.resolve(id, actor ? { status: "cancelled", actor } : { status: "cancelled" }, locale),
      );
    },
    get: (id) => options.store.get(id),
    list: (filter, page) => options.store.list(filter, page),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    idle: () => ctx.idle(),
    async close() {
      closed = true;
      deadlines.stop();
      repairer.stop();
      unsubscribe();
      // Every waiting ask()/wait() settles now, even while a prompt is still being delivered.
      const stopped = closedError();
      for (const reject of [...asking]) reject(stopped);
      asking.clear();
      for (const set of [...waiters.values()]) for (const waiter of [...set]) waiter(stopped);
      waiters.clear();
      await ready.catch(() => undefined);
      await ctx.idle(); // deliveries in flight are recorded, summary edits done
      await liveness.stop(); // what is still claimed by this start is free for any instance now
      listeners.clear();
    },
  };
  return broker;
}
