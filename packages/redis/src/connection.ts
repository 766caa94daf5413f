import { AskUserError, type AskUserLogger, describeError } from "@ask-user/core/store";
import { Redis, type RedisOptions } from "ioredis";

/** A command not answered within this time fails with `store_failure` (ms). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 5000;

/** Reconnect forever, quickly at first, then every 2 s. */
const retryStrategy = (attempt: number): number => Math.min(attempt * 100, 2000);

/** The client options the store's guarantees rely on, over the caller's (see README "Failures"). */
export function clientOptions(
  options: { redis?: Omit<RedisOptions, "keyPrefix"> | undefined },
  commandTimeoutMs: number,
): RedisOptions {
  return {
    retryStrategy,
    connectTimeout: commandTimeoutMs,
    ...options.redis,
    // A command that cannot be sent fails after two reconnection attempts instead of waiting.
    maxRetriesPerRequest: 1,
    commandTimeout: commandTimeoutMs,
    // A write whose reply was lost must not be sent again: its second run would report a conflict
    // with itself. It fails with store_failure instead, and the caller reads the record again.
    autoResendUnfulfilledCommands: false,
    lazyConnect: false,
  };
}

/** A connection with {@link clientOptions} to `url` (or ioredis's default server). */
export function connect(url: string | undefined, config: RedisOptions): Redis {
  return url === undefined ? new Redis(config) : new Redis(url, config);
}

/**
 * Logs a connection's failure once per outage (not once per reconnection attempt), and nothing once
 * `closed()` says it was closed on purpose.
 */
export function reportOutages(
  connection: Redis,
  fields: { keyPrefix: string; connection: string },
  logger: AskUserLogger,
  closed: () => boolean,
): void {
  let reported = false;
  connection.on("error", (error: unknown) => {
    if (reported || closed()) return;
    reported = true;
    logger.warn({ ...fields, err: describeError(error) }, "Redis connection failed");
  });
  connection.on("ready", () => {
    reported = false;
  });
}

/** `cause` as the `store_failure` of `label` doing `what` (an `AskUserError` stays as it is). */
export function storeFailure(label: string, what: string, cause: unknown): AskUserError {
  if (cause instanceof AskUserError) return cause;
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new AskUserError("store_failure", `${label}: could not ${what}: ${reason}`, { cause });
}

/** Ends a connection: QUIT when it is up (pending replies still arrive), else drop it at once. */
export async function quit(connection: Redis): Promise<void> {
  if (connection.status !== "ready") {
    connection.disconnect();
    return;
  }
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}
