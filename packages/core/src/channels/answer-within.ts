/**
 * Answer the platform within N ms, finish in the background. A platform delivers a request again (or
 * shows an error) when it is not answered in time — Telegram's webhook within about 5 s, Discord's
 * acknowledgement within 3 s, Slack's within 3 s — yet a slow store must not make the work fail or run
 * twice. {@link createBackground} runs the work and gives its value when it is quick; otherwise it says
 * "late" at the deadline, so the caller answers the platform, and keeps the work tracked (bounded, its
 * failure logged) until it settles.
 */
import { describeError } from "../model/errors.ts";
import { pause, TIMED_OUT, within } from "../ports/clock.ts";
import type { AskUserLogger } from "../ports/logger.ts";

/** What {@link Background.run} gives: the work's value, "late" (it goes on), or "busy" (not started). */
export type WithinOutcome<T> = { kind: "done"; value: T } | { kind: "late" } | { kind: "busy" };

/** Options of {@link createBackground}. */
export interface BackgroundOptions {
  /** How long the platform may wait for the answer. */
  withinMs: number;
  /** Late works tracked at most; beyond, `run` answers "busy" (default: no bound). */
  max?: number;
  logger: AskUserLogger;
  /** The channel's name, for logs. */
  channel: string;
  /** Logged (error) when a late work fails (default: "work failed after the platform was answered"). */
  lateFailureMessage?: string;
}

/** Works answered on time or finished in the background, made by {@link createBackground}. */
export interface Background {
  /**
   * Starts `work()` and resolves with its value when it settles within `withinMs`; otherwise resolves
   * `{kind:"late"}` at `withinMs` while the work goes on, tracked (a rejection after that is logged,
   * never unhandled: logger.error `{channel, err}` with `lateFailureMessage`). With `max` tracked works
   * already running it does not start `work` and resolves `{kind:"busy"}`. A rejection within the time
   * rejects (the caller answers it).
   */
  run<T>(work: () => Promise<T>): Promise<WithinOutcome<T>>;
  /** Works still running late. */
  readonly size: number;
  /** Resolves true once every late work has settled, false after `waitMs` (default forever). */
  settled(waitMs?: number): Promise<boolean>;
}

/**
 * A place to run work that must answer a platform in time (see the module comment).
 *
 * @example
 * const background = createBackground({ withinMs: 5_000, max: 64, logger, channel: "telegram" });
 * const outcome = await background.run(() => handleUpdate(request));
 * if (outcome.kind === "busy") return notReadyResponse("Too many updates are still being handled.", 5);
 * return outcome.kind === "done" ? outcome.value : new Response(null, { status: 200 });
 * // on shutdown: await background.settled(10_000);
 */
export function createBackground(options: BackgroundOptions): Background {
  const { withinMs, logger, channel } = options;
  const max = options.max ?? Number.POSITIVE_INFINITY;
  if (!(withinMs >= 0))
    throw new RangeError(`createBackground: withinMs must be 0 or more, not ${withinMs}.`);
  if (!(max >= 0)) throw new RangeError(`createBackground: max must be 0 or more, not ${max}.`);
  const lateFailureMessage = options.lateFailureMessage ?? "work failed after the platform was answered";
  const late = new Set<Promise<void>>();

  const track = (work: Promise<unknown>) => {
    const tracked = work.then(
      () => undefined,
      (error: unknown) => logger.error({ channel, err: describeError(error) }, lateFailureMessage),
    );
    late.add(tracked);
    void tracked.then(() => late.delete(tracked));
  };

  return {
    async run<T>(work: () => Promise<T>): Promise<WithinOutcome<T>> {
      if (late.size >= max) return { kind: "busy" };
      const running = work();
      const value = await within(running, withinMs);
      if (value !== TIMED_OUT) return { kind: "done", value };
      track(running);
      return { kind: "late" };
    },

    get size() {
      return late.size;
    },

    async settled(waitMs = Number.POSITIVE_INFINITY) {
      const stop = new AbortController();
      // An unbounded pause (Infinity) ends only when `stop` aborts it below.
      const timeUp = pause(waitMs, stop.signal, { unref: true }).then(() => false);
      try {
        // Works that turn late while waiting are waited for too, until the time is up.
        while (late.size > 0) {
          const all = Promise.all(late).then(() => true);
          if (!(await Promise.race([all, timeUp]))) return false;
        }
        return true;
      } finally {
        stop.abort();
      }
    },
  };
}
