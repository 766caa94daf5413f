/** What is told when a call is aborted: an object with `handleEvent` (no closure needed per listener). */
export interface AbortListener {
  handleEvent(): void;
}

/**
 * What a waiting call needs of its cancellation: an `AbortSignal` has it, and so has {@link CallAbort},
 * which costs a tenth of one while it waits (a Node `AbortSignal` with one listener is about 1 KB).
 */
export interface AbortLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: "abort", listener: AbortListener, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: AbortListener): void;
}

/**
 * The cancellation of one call over HTTP: `aborted`, `reason` and its `abort` listeners (each called
 * once), without an `AbortController`. Where an API wants a real `AbortSignal`, {@link withSignal} lends
 * one for as long as it is used.
 */
export class CallAbort implements AbortLike {
  aborted = false;
  reason: unknown = undefined;
  /** One listener (the usual case: the call's waiter), several, or none. */
  #listeners: AbortListener | AbortListener[] | undefined = undefined;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (Array.isArray(listeners)) for (const listener of listeners) listener.handleEvent();
    else listeners?.handleEvent();
  }

  addEventListener(_type: "abort", listener: AbortListener): void {
    if (this.aborted) return;
    const listeners = this.#listeners;
    if (listeners === undefined) this.#listeners = listener;
    else if (Array.isArray(listeners)) listeners.push(listener);
    else this.#listeners = [listeners, listener];
  }

  removeEventListener(_type: "abort", listener: AbortListener): void {
    const listeners = this.#listeners;
    if (listeners === listener) this.#listeners = undefined;
    else if (Array.isArray(listeners)) {
      const at = listeners.indexOf(listener);
      if (at >= 0) listeners.splice(at, 1);
      if (listeners.length === 1) this.#listeners = listeners[0];
    }
  }
}

/**
 * Runs `use` with a real `AbortSignal` that aborts with `abort` (`abort` itself when it is one), for as
 * long as the promise `use` returns is pending.
 */
export function withSignal<T>(abort: AbortLike, use: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (abort instanceof AbortSignal) return use(abort);
  const controller = new AbortController();
  if (abort.aborted) controller.abort(abort.reason);
  const follow: AbortListener = { handleEvent: () => controller.abort(abort.reason) };
  abort.addEventListener("abort", follow);
  let used: Promise<T>;
  try {
    used = use(controller.signal);
  } catch (error) {
    used = Promise.reject(error);
  }
  return used.finally(() => abort.removeEventListener("abort", follow));
}
