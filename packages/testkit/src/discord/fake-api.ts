/** The fake Discord's public shape: what `createFakeDiscord` takes and returns. */
import type { HeldCalls } from "./hold.ts";
import type {
  ApiCall,
  DcUser,
  Failure,
  FakeInteraction,
  FakeMessage,
  GatewaySessionInfo,
  InteractionCallback,
  UserInit,
} from "./types.ts";
import type { FakeDiscordUser } from "./users.ts";

/** A channel to create: a guild text channel, or a thread under `parentId`. */
export interface ChannelInit {
  id: string;
  name: string;
  type?: "text" | "thread";
  parentId?: string;
}

/** A guild the bot is in. */
export interface GuildInit {
  id: string;
  name?: string;
  /** `preferred_locale`, sent as `guild_locale` with interactions. Default `en-US`. */
  locale?: string;
  channels: ChannelInit[];
}

/** Options of {@link createFakeDiscord}. */
export interface FakeDiscordOptions {
  /** Bot token (as given to `client.login`). Default `"fake-discord-token"`. */
  token?: string;
  /** Default `"100000000000000001"`. */
  botId?: string;
  /** Default `"ask_user_bot"`. */
  botUsername?: string;
  /** Default: the bot id. */
  applicationId?: string;
  /** Default: one guild with a `#general` text channel and a thread in it (see {@link FakeDiscord.guild}). */
  guilds?: GuildInit[];
  /** Clock for timestamps, snowflakes and the 15-minute token lifetime (epoch ms). Default `Date.now`. */
  now?: () => number;
  /** The first interaction response must come within this (real) time. Default 3000. */
  responseDeadlineMs?: number;
  /** `heartbeat_interval` in HELLO. Default 41250. */
  heartbeatIntervalMs?: number;
  /** Whether the app may use the privileged Message Content intent; false → IDENTIFY with it is closed 4014. */
  privilegedIntents?: boolean;
}

/** A running fake Discord. */
export interface FakeDiscord {
  /** Pass to discord.js as `rest: { api }` (REST calls go to `${apiUrl}/v10/...`). */
  readonly apiUrl: string;
  /** The `ws://` gateway URL that `GET /gateway/bot` hands out. */
  readonly gatewayUrl: string;
  readonly token: string;
  readonly bot: DcUser;
  readonly applicationId: string;
  /** The first guild: its id, its first text channel and its first thread. */
  readonly guild: { id: string; channelId: string; threadId: string | undefined };
  /** Every REST call, in arrival order (live, read-only). */
  readonly calls: readonly ApiCall[];
  /** Every interaction the users made, with the bot's responses (live, read-only). */
  readonly interactions: readonly FakeInteraction[];
  /** A user (registered on first call; the same id gives the same user). */
  user(init: UserInit): FakeDiscordUser;
  /** Adds a channel to a guild (default the first) and dispatches CHANNEL_CREATE / THREAD_CREATE. */
  addChannel(init: ChannelInit & { guildId?: string }): string;
  /** The public messages of a channel as they stand now (edits applied), oldest first. */
  messages(channelId: string): FakeMessage[];
  message(channelId: string, messageId: string): FakeMessage | undefined;
  /**
   * A public message as text, as people see it (`renderMessageText`): mentions as the users' names,
   * timestamps in UTC relative to the fake's clock, then the components and reactions. Throws for an
   * unknown message.
   */
  messageText(channelId: string, messageId: string): string;
  /** Ephemeral messages only this user saw (interaction replies and follow-ups), oldest first. */
  ephemerals(userId: string): FakeMessage[];
  /** The DM channel between the bot and a user, once one exists. */
  dmChannelId(userId: string): string | undefined;
  interaction(id: string): FakeInteraction | undefined;
  /** Gateway sessions, oldest first. */
  sessions(): GatewaySessionInfo[];
  /**
   * Holds every later call of a route (e.g. `createMessage`, `editMessage`) open before the fake acts on
   * it — Discord hanging mid-request — until the handle releases (carries out) or drops (cuts) them.
   *
   * @example
   * const held = discord.hold("createMessage");
   * await discord.waitUntil(() => held.calls.length === 1);
   * held.drop(); // as if the request never reached Discord
   */
  hold(route: string): HeldCalls;
  /** Makes the next call of a route (e.g. `createMessage`) fail as given; queued. */
  failNext(route: string, failure: Failure): void;
  /** Closes every gateway socket with `code` (default 4000); the client resumes. */
  dropConnections(code?: number): void;
  /** Resolves with the first REST call (past or future) matching `predicate`. */
  waitFor(predicate: (call: ApiCall) => boolean, timeoutMs?: number): Promise<ApiCall>;
  /** Resolves with the first truthy value of `check`, re-run on every change and every 20 ms. */
  waitUntil<T>(check: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  /** Resolves with the bot's first response to an interaction. */
  waitForResponse(interaction: FakeInteraction | string, timeoutMs?: number): Promise<InteractionCallback>;
  /** Closes sockets and the server; waits reject. Idempotent. */
  close(): Promise<void>;
}
