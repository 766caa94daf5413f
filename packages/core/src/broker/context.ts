import { AskUserError, describeError } from "../model/errors.ts";
import { randomBase64Url } from "../model/random.ts";
import { awaitsSummary, type Delivery, type QuestionRecord, type RepairClaim } from "../model/types.ts";
import type { Channel } from "../ports/channel.ts";
import type { Clock } from "../ports/clock.ts";
import type { AskUserLogger } from "../ports/logger.ts";
import type { QuestionStore } from "../ports/store.ts";
import { messagesFor } from "../prompt/i18n.ts";
import { MessageEdits } from "./message-edits.ts";
import { type Refusal, refusalForStatus } from "./policy.ts";
import { RecentRecords } from "./recent.ts";
import { finish, keepBefore, type Resolution } from "./transitions.ts";

export type Transition =
  | { ok: true; record: QuestionRecord; previous: QuestionRecord }
  | { ok: false; refusal: Refusal; record: QuestionRecord | undefined };

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
    /** This broker's name in repair claims. */
    readonly instanceId: string,
    /** How long a claim keeps other instances away from a question this one delivers or edits. */
    readonly claimMs: number,
  ) {}

  /** The records last heard written: a transition's first guess (see {@link RecentRecords}). */
  readonly recent = new RecentRecords();

  /** Questions this broker is delivering right now (its own repair sweep leaves them alone). */
  readonly delivering = new Set<string>();

  /** This start of the broker (claims carry it: see {@link RepairClaim.boot}). */
  readonly bootId = randomBase64Url(9);

  /** A claim by this broker from now on (or until `until`). */
  claim(until = this.clock.now() + this.claimMs): RepairClaim {
    return { by: this.instanceId, until, boot: this.bootId };
  }

  /**
   * True while `claim` keeps this broker away: it has not run out, and it is not a claim of this same
   * instance from an earlier start (a restart finishes its own half-done work at once; instance ids
   * are unique among running brokers, so nobody else can be holding it).
   */
  claimHolds(claim: RepairClaim | undefined, now = this.clock.now()): claim is RepairClaim {
    if (!claim || claim.until <= now) return false;
    return !(claim.by === this.instanceId && claim.boot !== this.bootId);
  }

  /**
   * Read-modify-write with compare-and-set, retried while other writers come first. `change` gets a
   * private copy and returns the next record or a refusal; it may change anything but the prompt, the
   * tokens and the answerer policy (fixed at creation, shared with the `previous` copy). `read`: a
   * private copy of the record that the caller has just read from the store, used for the first
   * attempt instead of reading it again (the compare-and-set on its version still refuses it if anyone
   * wrote in between, and the next attempt reads the record as stored then). Without it the first
   * attempt starts from the record last heard written ({@link RecentRecords}) when there is one: a
   * guess, so a refusal decided on it is decided again on the stored record. `guessed`: `read` is such
   * a guess too.
   */
  async transition(
    id: string,
    locale: string,
    change: (current: QuestionRecord) => QuestionRecord | Refusal,
    read?: QuestionRecord,
    guessed = false,
  ): Promise<Transition> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      // The caller's read, else the record last heard written (a guess), else the stored one.
      const guessNow = attempt === 0 && read?.id !== id ? this.recent.guess(id) : undefined;
      const guess = guessNow !== undefined || (attempt === 0 && read?.id === id && guessed);
      const current = attempt === 0 && read?.id === id ? read : (guessNow ?? (await this.store.get(id)));
      if (!current) {
        this.recent.forget(id);
        return {
          ok: false,
          refusal: { reason: "unknown", message: messagesFor(locale).refusedUnknown },
          record: undefined,
        };
      }
      const previous = keepBefore(current);
      const next = change(current);
      if ("reason" in next) {
        if (guess) continue; // decided again on the record as stored
        return { ok: false, refusal: next, record: previous };
      }
      next.version = previous.version + 1;
      if (await this.store.compareAndSet(previous.version, next)) return { ok: true, record: next, previous };
    }
    throw new AskUserError(
      "store_conflict",
      `Question ${id} kept changing under ${MAX_CAS_ATTEMPTS} writes.`,
    );
  }

  /**
   * Changes a pending record, deciding from the record as it is stored now (inside the compare-and-set,
   * so concurrent writers never lose each other's work). A record that has ended is refused with its
   * reason; one past its deadline is expired instead (and refused as expired) unless `keepLate`.
   * `change` returns the next record or a refusal (`invalid` for a reply that cannot be read).
   * A record that this call ended gets its messages edited to the summary in the background.
   */
  async act(
    id: string,
    locale: string,
    change: (current: QuestionRecord, now: number) => QuestionRecord | Refusal,
    options: { keepLate?: boolean; read?: QuestionRecord; guessed?: boolean } = {},
  ): Promise<Transition> {
    // Counted as background work from the start: a waiter woken by this write (and a close() it
    // triggers) must still see the summary edit that follows it.
    const done = this.hold();
    try {
      return await this.actHeld(id, locale, change, options);
    } finally {
      done();
    }
  }

  private async actHeld(
    id: string,
    locale: string,
    change: (current: QuestionRecord, now: number) => QuestionRecord | Refusal,
    options: { keepLate?: boolean; read?: QuestionRecord; guessed?: boolean },
  ): Promise<Transition> {
    let expiredInstead = false;
    const result = await this.transition(
      id,
      locale,
      (record) => {
        const refusal = refusalForStatus(record, locale);
        if (refusal) return refusal;
        const now = this.clock.now();
        expiredInstead = !options.keepLate && now >= record.expiresAt;
        const next = expiredInstead
          ? finish(record, { status: "expired" }, record.expiresAt)
          : change(record, now);
        // Ending it: this broker edits the messages next, so siblings leave them alone for a while.
        if (!("reason" in next) && awaitsSummary(next)) next.claim = this.claim();
        return next;
      },
      options.read,
      options.guessed,
    );
    if (result.ok && awaitsSummary(result.record)) this.background(this.finalize(result.record));
    if (result.ok && result.record.status === "pending" && draftChanged(result.previous, result.record))
      this.background(this.refresh(result.record.id));
    if (result.ok && expiredInstead) {
      const refusal = refusalForStatus(result.record, locale);
      if (refusal) return { ok: false, refusal, record: result.record };
    }
    return result;
  }

  /**
   * Moves a pending record to a final state; the first writer wins and every later one gets the precise
   * refusal. An answer or skip that comes after the deadline expires the question instead.
   */
  resolve(
    id: string,
    resolution: Resolution,
    locale: string,
    read?: QuestionRecord,
    guessed = false,
  ): Promise<Transition> {
    const late = resolution.status === "answered" || resolution.status === "skipped";
    return this.act(
      id,
      locale,
      (record, now) => finish(record, resolution, resolution.status === "expired" ? record.expiresAt : now),
      read ? { keepLate: !late, read, guessed } : { keepLate: !late },
    );
  }

  /** Remembers a message sent for a question, so that replies to it route there (SPEC §7 rule 1). */
  async remember(id: string, message: Omit<Delivery, "kind" | "finalizedAt">): Promise<void> {
    await this.transition(id, this.locale, (current) => {
      const known = current.deliveries.some(
        (d) =>
          d.channel === message.channel &&
          d.conversation === message.conversation &&
          d.messageId === message.messageId,
      );
      if (!known) current.deliveries.push({ ...message, kind: "notice" });
      return current;
    });
  }

  /** The summary edits and draft refreshes of this broker's questions (see `message-edits.ts`). */
  private readonly edits = new MessageEdits(this);

  /**
   * Edits every delivered prompt message of an ended record to its summary, counting failures for a
   * retry with backoff (see {@link MessageEdits.finalize}).
   */
  finalize(record: QuestionRecord): Promise<void> {
    return this.edits.finalize(record);
  }

  /** Re-renders a pending prompt's messages with its latest draft, one refresh at a time per question. */
  refresh(id: string): Promise<void> {
    return this.edits.refresh(id);
  }

  /** Told when a failed edit is due for its next try (the repair sweep schedules itself by it). */
  onRetry: ((at: number) => void) | undefined;

  /** Counts as background work until the returned function is called (see `idle`). */
  hold(): () => void {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.tasks.add(held);
    void held.then(() => this.tasks.delete(held));
    return release;
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

/** True when a transition changed what the draft holds. */
function draftChanged(previous: QuestionRecord, next: QuestionRecord): boolean {
  return JSON.stringify(previous.draft ?? {}) !== JSON.stringify(next.draft ?? {});
}
