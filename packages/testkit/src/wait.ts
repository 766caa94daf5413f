/** What a fake exposes to the shared waiting helper: change listeners and whether it closed. */
export interface Watchable {
  listeners: Set<() => void>;
  closed: boolean;
}

/** How often waits re-check conditions that depend on things outside the fake (a handler's side effects). */
export const WAIT_POLL_MS = 20;

/**
 * Resolves with the first truthy value of `check`, re-evaluated on every change of the fake's state and
 * every {@link WAIT_POLL_MS}. Rejects after `timeoutMs`, or at once when the fake closes (`platform`
 * names it in the message). Shared by every fake.
 */
export function waitUntil<T>(
  state: Watchable,
  platform: string,
  check: () => T | undefined | null | false,
  timeoutMs: number,
  what = "a condition",
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let poll: NodeJS.Timeout | undefined;
    const finish = (error: Error | undefined, value?: T) => {
      state.listeners.delete(listener);
      clearTimeout(timer);
      clearInterval(poll);
      if (error) reject(error);
      else resolve(value as T);
    };
    const listener = () => {
      let value: T | undefined | null | false;
      try {
        value = check();
      } catch (error) {
        finish(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (value) finish(undefined, value);
      else if (state.closed) finish(new Error(`fake ${platform} closed while waiting for ${what}`));
    };
    state.listeners.add(listener);
    timer = setTimeout(
      () => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)),
      timeoutMs,
    );
    poll = setInterval(listener, WAIT_POLL_MS);
    listener();
  });
}
