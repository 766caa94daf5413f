import type { Channel } from "./channel.ts";
import type { Clock } from "./clock.ts";
import { AskUserError } from "./errors.ts";
import { messagesFor } from "./i18n.ts";
import { type Refusal, refusalForStatus } from "./policy.ts";
import { renderSummary } from "./render.ts";
import type { QuestionStore } from "./store.ts";
import type { Actor, Answers, QuestionRecord } from "./types.ts";

/** Where the broker reports trouble it handled (pino-compatible: details first, then the message). */
export interface AskUserLogger {
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

/** The default logger: one line on stderr per problem. */
export const consoleLogger: AskUserLogger = {
  warn: (details, message) => console.warn(`[ask-user] ${message}`, details),
  error: (details, message) => console.error(`[ask-user] ${message}`, details),
};

export type Transition =
  | { ok: true; record: QuestionRecord; previous: QuestionRecord }
  | { ok: false; refusal: Refusal; record: QuestionRecord | undefined };

/** A final state to move a pending record to. */
export type Resolution =
  | { status: "answered"; answers: Answers; actor: Actor }
  | { status: "skipped"; actor: Actor }
  | { status: "expired" }
  | { status: "cancelled"; actor?: Actor }
  | { status: "undeliverable"; error: string };

const MAX_CAS_ATTEMPTS = 64;

/** State and helpers shared by the broker's parts. */
export class BrokerContext {
  private readonly tasks = new Set<Promise<unknown>>();

  constructor(
    readonly store: QuestionStore,
    readonly clock: Clock,
    readonly channels: ReadonlyMap<string, Channel>,
    readonly locale: string,
    readonly logger: AskUserLogger,
  ) {}

  /**
   * Read-modify-write with compare-and-set, retried while other writers come first. `change` gets a
   * private copy and returns the next record or a refusal.
   */
  async transition(
    id: string,
    locale: string,
    change: (current: QuestionRecord) => QuestionRecord | Refusal,
  ): Promise<Transition> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.store.get(id);
      if (!current) {
        return {
          ok: false,
          refusal: { reason: "unknown", message: messagesFor(locale).refusedUnknown },
          record: undefined,
        };
      }
      const previous = structuredClone(current);
      const next = change(current);
      if ("reason" in next) return { ok: false, refusal: next, record: previous };
      next.version = previous.version + 1;
      if (await this.store.compareAndSet(previous.version, next)) return { ok: true, record: next, previous };
    }
    throw new AskUserError(
      "store_conflict",
      `Question ${id} kept changing under ${MAX_CAS_ATTEMPTS} writes.`,
    );
  }

  /**
   * Moves a pending record to a final state; the first writer wins and every later one gets the precise
   * refusal. An answer or skip that comes after the deadline expires the question instead.
   */
  async resolve(id: string, resolution: Resolution, locale: string): Promise<Transition> {
    let expiredInstead = false;
    const result = await this.transition(id, locale, (record) => {
      const refusal = refusalForStatus(record, locale);
      if (refusal) return refusal;
      const now = this.clock.now();
      const late = now >= record.expiresAt;
      if (late && (resolution.status === "answered" || resolution.status === "skipped")) {
        expiredInstead = true;
        return finish(record, { status: "expired" }, record.expiresAt);
      }
      return finish(record, resolution, resolution.status === "expired" ? record.expiresAt : now);
    });
    if (result.ok) this.background(this.finalize(result.record));
    if (result.ok && expiredInstead) {
      const refusal = refusalForStatus(result.record, locale);
      if (refusal) return { ok: false, refusal, record: result.record };
    }
    return result;
  }

  /** Edits every delivered prompt message of a resolved record to its summary, then marks it done. */
  async finalize(record: QuestionRecord): Promise<void> {
    const summary = renderSummary(record, { locale: record.locale });
    const done: string[] = [];
    for (const delivery of record.deliveries) {
      if (delivery.kind !== "prompt" || delivery.finalizedAt !== undefined) continue;
      const channel = this.channels.get(delivery.channel);
      if (!channel) continue;
      try {
        await channel.finalize({ record, delivery, locale: record.locale, summary });
        done.push(delivery.messageId);
      } catch (error) {
        this.logger.warn(
          {
            questionId: record.id,
            channel: delivery.channel,
            messageId: delivery.messageId,
            err: describeError(error),
          },
          "could not edit the question message to its summary",
        );
      }
    }
    if (done.length === 0) return;
    const at = this.clock.now();
    await this.transition(record.id, record.locale, (current) => {
      for (const delivery of current.deliveries) {
        if (done.includes(delivery.messageId) && delivery.kind === "prompt") delivery.finalizedAt ??= at;
      }
      return current;
    });
  }

  /** Runs work in the background, logging failures; `idle()` waits for all of it. */
  background(work: Promise<unknown>): void {
    const task = work.catch((error: unknown) => {
      this.logger.error({ err: describeError(error) }, "background work failed");
    });
    this.tasks.add(task);
    void task.finally(() => this.tasks.delete(task));
  }

  async idle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.all([...this.tasks]);
  }
}

function finish(record: QuestionRecord, resolution: Resolution, at: number): QuestionRecord {
  record.status = resolution.status;
  record.resolvedAt = at;
  delete record.awaitingText;
  if (resolution.status === "answered") {
    record.answers = resolution.answers;
    delete record.draft;
  }
  if ("actor" in resolution && resolution.actor) record.resolvedBy = resolution.actor;
  if (resolution.status === "undeliverable") record.error = resolution.error;
  return record;
}

/** A short, token-free description of an error for logs and records. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
