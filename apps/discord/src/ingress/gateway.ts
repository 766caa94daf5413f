/**
 * The plugin instance's gateway (WebSocket) connection, and who holds it among the instances on one
 * token. Discord sends every dispatch to every connection (without sharding), so only the holder of the
 * lease `discord:<bot id>:gateway` in the shared store connects; the others send over REST. When the
 * holder stops it gives the lease up and another one connects within one renewal; when it dies, within
 * about ten seconds (the lease runs out, then the next renewal takes it).
 *
 * Each connection gets a fresh discord.js client — a destroyed client cannot log in again — whose events
 * are re-emitted on the stable client the channel (and the host) listen on. Closing is bounded: REST
 * calls of the connection are aborted and discord.js gets {@link DISCONNECT_TIMEOUT_MS} to close, even
 * while Discord is unreachable and discord.js is still trying to reconnect.
 */
import {
  type ChannelPluginContext,
  describeError,
  keepLease,
  type LeaseKeeper,
  pause,
  TIMED_OUT,
  within,
} from "@ask-user/core/channel";
import {
  Client,
  type ClientOptions,
  DefaultRestOptions,
  Events,
  GatewayIntentBits,
  Partials,
} from "discord.js";
import type { DiscordConfig } from "../config.ts";
import {
  DISCONNECT_TIMEOUT_MS,
  LEASE_TTL_MS,
  LOGIN_TIMEOUT_MS,
  RATE_LIMIT_WAIT_MAX_MS,
  RECONNECT_FIRST_MS,
  RECONNECT_MAX_MS,
} from "../limits.ts";

interface HoldGatewayOptions extends ChannelPluginContext<DiscordConfig> {
  /** The stable client: every event of the current connection is re-emitted on it. */
  hub: Client;
  botId: string;
  /** Called once when Discord refuses the Message Content intent; later connections go without it. */
  onNoMessageContent(): void;
}

/** REST calls end when `signal` aborts (retries included): closing never waits on an unreachable Discord. */
export function clientOptions(
  apiUrl: string | undefined,
  signal: AbortSignal,
  content: boolean,
): ClientOptions {
  const { Guilds, GuildMessages, DirectMessages, MessageContent } = GatewayIntentBits;
  return {
    intents: [Guilds, GuildMessages, DirectMessages, ...(content ? [MessageContent] : [])],
    partials: [Partials.Channel],
    rest: {
      ...(apiUrl === undefined ? {} : { api: apiUrl }),
      rejectOnRateLimit: (limit) => limit.retryAfter > RATE_LIMIT_WAIT_MAX_MS,
      makeRequest: (url, init) =>
        DefaultRestOptions.makeRequest(url, {
          ...init,
          signal: init.signal ? AbortSignal.any([init.signal, signal]) : signal,
        }),
    },
  };
}

/** Re-emits everything `from` emits on `to`; returns the undo. */
function forward(from: Client, to: Client): () => void {
  const emit = from.emit;
  from.emit = function (this: Client, event: string | symbol, ...args: unknown[]): boolean {
    const handled = Reflect.apply(emit, this, [event, ...args]) as boolean;
    if (event !== Events.Error || to.listenerCount(Events.Error) > 0)
      to.emit(event as never, ...(args as []));
    return handled;
  } as Client["emit"];
  return () => {
    from.emit = emit;
  };
}

/** `work`, or nothing after half the disconnect bound (a timer that never keeps the process alive). */
const bounded = <T>(work: Promise<T>) =>
  Promise.race([work, pause(DISCONNECT_TIMEOUT_MS / 2, undefined, { unref: true })]);

async function loginWithin(client: Client, token: string): Promise<void> {
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  const login = await within(
    client.login(token).then(() => ready),
    LOGIN_TIMEOUT_MS,
  );
  if (login === TIMED_OUT) throw new Error(`Discord: not ready after ${LOGIN_TIMEOUT_MS} ms`);
}

interface Live {
  client: Client;
  abort: AbortController;
  stopForwarding(): void;
  login: Promise<unknown>;
}

/**
 * This instance's part in the lease, with one connection at a time, opened and closed as the lease comes
 * and goes: the first time by `start` (its errors are start's), later in the background with backoff
 * until connected or closed. Nothing connects before `start`; `stop` is safe to call twice.
 */
export function holdGateway(options: HoldGatewayOptions) {
  const { hub, config, logger, coordination, instanceId } = options;
  let messageContent = true;
  let live: Live | undefined;
  let wanted = false;
  let retrying: Promise<void> | undefined;
  let opening: Promise<void> | undefined;
  let closing = new AbortController();

  const teardown = async (conn: Live): Promise<void> => {
    if (live === conn) live = undefined;
    conn.stopForwarding();
    conn.abort.abort();
    const settled = conn.login.then(() => true).catch(() => false);
    const loggedIn = await bounded(settled);
    await bounded(conn.client.destroy());
    if (loggedIn === undefined) {
      // Still logging in: if that ever succeeds, close what it opened. discord.js ignores a second
      // destroy(), and the login that raced the first one left a live socket.
      void settled.then((ok) => {
        if (!ok) return;
        (conn.client.ws as unknown as { destroyed: boolean }).destroyed = false;
        return conn.client.destroy().catch(() => undefined);
      });
    }
  };

  const attempt = async (intents: boolean): Promise<void> => {
    const abort = new AbortController();
    const client = new Client(clientOptions(config.apiUrl, abort.signal, intents));
    client.on(Events.Error, (error) =>
      logger.warn({ channel: "discord", err: describeError(error) }, "Discord: gateway client error"),
    );
    const conn: Live = { client, abort, stopForwarding: forward(client, hub), login: Promise.resolve() };
    // discord.js gave the connection up for good (e.g. close code 4004): open a new one.
    client.on(Events.ShardDisconnect, (event) => {
      if (live !== conn || opening) return;
      logger.warn(
        { channel: "discord", code: event.code },
        "Discord: the gateway connection ended, reconnecting",
      );
      void teardown(conn).then(() => {
        if (wanted) keepConnecting();
      });
    });
    conn.login = loginWithin(client, config.token);
    live = conn;
    try {
      await conn.login;
    } catch (error) {
      await teardown(conn);
      throw error;
    }
    if (live !== conn || !wanted) {
      await teardown(conn);
      throw new Error("Discord: the connection was closed while it opened");
    }
  };

  const open = async (): Promise<void> => {
    try {
      await attempt(messageContent);
    } catch (error) {
      if (!(error instanceof Error && /disallowed intents/i.test(error.message)) || !wanted) throw error;
      messageContent = false;
      logger.info?.(
        { channel: "discord" },
        "Discord refused the Message Content intent (not enabled for this app): connecting without it.",
      );
      options.onNoMessageContent();
      await attempt(false);
    }
  };

  /** Connects once (resolves at READY), joining the attempt in flight, if any. */
  const connect = (): Promise<void> => {
    wanted = true;
    if (live && !opening) return Promise.resolve();
    opening ??= open().finally(() => {
      opening = undefined;
    });
    return opening;
  };

  const retryLoop = async (): Promise<void> => {
    for (let delay = RECONNECT_FIRST_MS; wanted && !live; delay = Math.min(delay * 2, RECONNECT_MAX_MS)) {
      try {
        return await connect();
      } catch (error) {
        if (!wanted) return;
        const fields = { channel: "discord", err: describeError(error), retryInMs: delay };
        logger.warn(fields, "Discord: could not connect to the gateway, retrying");
      }
      await pause(delay, closing.signal);
    }
  };

  function keepConnecting(): void {
    wanted = true;
    if (!live) retrying ??= retryLoop().finally(() => (retrying = undefined));
  }

  const close = async (): Promise<void> => {
    wanted = false;
    closing.abort();
    closing = new AbortController();
    if (live) await teardown(live);
  };

  const lease = `discord:${options.botId}:gateway`;
  let keeper: LeaseKeeper | undefined;
  let started = false;
  return {
    /** Takes part in the lease; on the holder, resolves once the connection is READY. */
    async start(): Promise<void> {
      const first = await coordination.acquireLease(lease, instanceId, LEASE_TTL_MS);
      let initial = first ? connect() : undefined;
      keeper = keepLease({
        coordination,
        name: lease,
        holder: instanceId,
        ttlMs: LEASE_TTL_MS,
        logger,
        onAcquired: () => {
          if (initial === undefined) keepConnecting();
        },
        onLost: close,
      });
      await initial;
      initial = undefined;
      started = true;
    },
    async stop(): Promise<void> {
      await keeper?.stop();
      await close();
    },
    /** `connected` (this instance holds the gateway), `rest` (another one does) or `idle` (not started). */
    get state(): "connected" | "rest" | "idle" {
      return live ? "connected" : started ? "rest" : "idle";
    },
  };
}
