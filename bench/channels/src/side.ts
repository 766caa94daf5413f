/** What a platform's bench gives the comparison: two sides, each putting up prompts and taking taps. */
import type { Span } from "./spans.ts";

/** One prompt on screen, ready for the tap. */
export interface Round {
  /** Makes the fake's person tap the button: the clock starts just before this call. */
  tap(): void;
  /** `performance.now()` taken where `ask()` (bare: the handler's waiting promise) resolved. */
  readonly resolved: Promise<number>;
  /** Waits until everything the tap set off is over: acknowledged, message edited, next poll open. */
  settle(): Promise<void>;
}

/** The product or the bare SDK on one platform. */
export interface Side {
  /** Puts a fresh one-question prompt in front of the person. */
  next(): Promise<Round>;
  /** Durable commits so far, and the transactions that held them. */
  commits(): { writes: number; transactions: number };
  /** Its durable-store calls so far (product: every store call; bare: its one write per tap). */
  readonly spans: readonly Span[];
  close(): Promise<void>;
}

/** Both sides of one platform, each on its own fake. */
export interface Platform {
  /** `Telegram (long polling)`. */
  title: string;
  /** The bare side's SDK: `grammY Bot`. */
  sdk: string;
  product: Side;
  bare: Side;
}

/** `promise`, or a rejection naming `what` after `timeoutMs`. */
export function within<T>(promise: Promise<T>, what: string, timeoutMs = 5_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
