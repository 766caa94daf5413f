import type { AskUserLogger } from "@ask-user/core";
import type { AbortLike } from "./abort.ts";
import { clock } from "./clock.ts";

/** What a waiting call reports progress about: its question's id, deadline and timeout. */
export interface WaitingQuestion {
  id: string;
  /** The question's deadline (epoch ms). */
  expiresAt: number;
  /** The question's timeout in seconds: the progress `total`. */
  timeoutSeconds: number;
}

/** Sends one `notifications/progress` of a call. */
export type SendProgress = (params: { progress: number; total: number; message: string }) => Promise<void>;

/** One call registered with the ticker. */
interface Ticking {
  question: WaitingQuestion;
  send: SendProgress;
  signal: AbortLike;
  startedAt: number;
  /** The last `progress` sent (they only increase). */
  last: number;
  /** The slot of the wheel it is in. */
  slot: number;
}

/** Progress for every waiting call from one timer. */
export interface ProgressTicker {
  /** Sends progress at once, then every interval until the returned function is called. */
  start(question: WaitingQuestion, send: SendProgress, signal: AbortLike): () => void;
  /** How many calls are ticking. */
  readonly size: number;
}

/** The finest tick of the wheel, and how many ticks an interval is cut into at most. */
const MIN_TICK_MS = 10;
const SLOTS = 100;

/**
 * `notifications/progress` for many waiting calls: a timing wheel of `intervalMs` cut into slots, one
 * timer for all calls (running only while some call waits). A call sends at once, then each time the
 * wheel comes round to its slot — every `intervalMs` — so the gap between two notifications never
 * exceeds the interval, and the calls' notifications stay spread over the interval (ten thousand
 * waiting calls send about 100 per tick at the default 10 s, never all at once). `progress` is
 * seconds elapsed (one decimal, always increasing), `total` the question's timeout in seconds.
 */
export function createProgressTicker(intervalMs: number, logger: AskUserLogger): ProgressTicker {
  const tickMs = Math.max(MIN_TICK_MS, Math.floor(intervalMs / SLOTS));
  const slots = Math.max(1, Math.round(intervalMs / tickMs));
  const wheel: Array<Set<Ticking>> = Array.from({ length: slots }, () => new Set());
  let cursor = 0;
  let count = 0;
  let timer: NodeJS.Timeout | undefined;

  const send = (call: Ticking) => {
    const now = Date.now();
    const progress = Math.round((now - call.startedAt) / 100) / 10;
    if (progress <= call.last || call.signal.aborted) return;
    call.last = progress;
    const secondsLeft = Math.max(0, Math.ceil((call.question.expiresAt - now) / 1000));
    const message = `Waiting for an answer — ${clock(secondsLeft)} left`;
    call.send({ progress, total: call.question.timeoutSeconds, message }).catch((error: unknown) => {
      logger.warn({ err: error, questionId: call.question.id }, "progress not sent");
    });
  };

  const tick = () => {
    const due = wheel[cursor] as Set<Ticking>;
    cursor = (cursor + 1) % slots;
    for (const call of due) send(call);
  };

  return {
    get size() {
      return count;
    },
    start(question, sendProgress, signal) {
      // The slot the wheel reaches last: a whole interval after now (less the part of a tick gone).
      const slot = (cursor + slots - 1) % slots;
      const call: Ticking = { question, send: sendProgress, signal, startedAt: Date.now(), last: -1, slot };
      send(call);
      (wheel[slot] as Set<Ticking>).add(call);
      count++;
      if (timer === undefined) {
        timer = setInterval(tick, tickMs);
        timer.unref();
      }
      return () => {
        if (!(wheel[call.slot] as Set<Ticking>).delete(call)) return;
        count--;
        if (count === 0) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
  };
}
