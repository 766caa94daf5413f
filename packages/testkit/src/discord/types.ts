/**
 * The slice of Discord API objects the fake produces, plus the fake's own records.
 * Field names follow the Discord API (snake_case, snowflakes as strings) so they can be compared with
 * what discord.js sends and sees.
 */

/** A Discord `User`. */
export interface DcUser {
  id: string;
  username: string;
  global_name: string | null;
  discriminator: string;
  avatar: string | null;
  bot?: boolean;
}

/** A guild member as it appears in interactions and messages (without `user` in messages). */
export interface DcMember {
  user?: DcUser;
  nick: string | null;
  roles: string[];
  joined_at: string;
  deaf: boolean;
  mute: boolean;
  flags: number;
  permissions?: string;
}

/** A Discord `Channel`: guild text (0), DM (1), thread (11). */
export interface DcChannel {
  id: string;
  type: number;
  guild_id?: string;
  name?: string;
  parent_id?: string | null;
  position?: number;
  permission_overwrites?: unknown[];
  recipients?: DcUser[];
  last_message_id?: string | null;
  flags?: number;
  thread_metadata?: Record<string, unknown>;
}

/** A message component (action row, button, text input, label, …); only the fields the fake reads are typed. */
export interface DcComponent {
  type: number;
  custom_id?: string;
  label?: string;
  style?: number;
  url?: string;
  components?: DcComponent[];
  component?: DcComponent;
  [field: string]: unknown;
}

/** `message_reference` of a reply. */
export interface DcMessageReference {
  type?: number;
  message_id: string;
  channel_id: string;
  guild_id?: string;
  fail_if_not_exists?: boolean;
}

/** A Discord `Message`. */
export interface DcMessage {
  id: string;
  type: number;
  channel_id: string;
  guild_id?: string;
  author: DcUser;
  member?: DcMember;
  content: string;
  timestamp: string;
  edited_timestamp: string | null;
  tts: boolean;
  mention_everyone: boolean;
  mentions: DcUser[];
  mention_roles: string[];
  attachments: unknown[];
  embeds: unknown[];
  pinned: boolean;
  flags: number;
  components: DcComponent[];
  message_reference?: DcMessageReference;
  referenced_message?: DcMessage | null;
  application_id?: string;
  webhook_id?: string;
  /** Sent in gateway MESSAGE_CREATE: discord.js needs it for DMs it has not cached. */
  channel_type?: number;
  /** The sender's `nonce`, when it gave one. */
  nonce?: string | number;
  /** Reactions on the message (added with `PUT …/reactions/{emoji}/@me`). */
  reactions?: DcReaction[];
}

/** A reaction on a message: a Unicode emoji, how many reacted, whether the bot is one of them. */
export interface DcReaction {
  count: number;
  me: boolean;
  emoji: { id: null; name: string };
}

/** A modal as shown by an interaction response of type 9. */
export interface DcModal {
  title: string;
  custom_id: string;
  components: DcComponent[];
}

/** Who a message pings, given its content, `message_reference` and `allowed_mentions`. */
export interface Pings {
  everyone: boolean;
  users: string[];
  roles: string[];
}

/** A message as the fake keeps it, with what it would ping (test-facing). */
export interface FakeMessage extends DcMessage {
  /** Who was pinged when the message was sent (edits never ping on Discord; they are not added). */
  pings: Pings;
  /** The `allowed_mentions` the bot sent, if any. */
  allowed_mentions?: unknown;
  /** Set on ephemeral messages: the only user who sees it. */
  visible_to?: string;
}

/** One accepted interaction callback (`POST /interactions/{id}/{token}/callback`). */
export interface InteractionCallback {
  /** 4 reply, 5 deferred reply, 6 deferred update, 7 update, 9 modal. */
  type: number;
  data?: Record<string, unknown>;
  /** Milliseconds after the interaction was created. */
  elapsed_ms: number;
}

/** An interaction the fake created (a button click or a modal submission), with what the bot answered. */
export interface FakeInteraction {
  id: string;
  token: string;
  /** 3 message component, 5 modal submit. */
  type: number;
  custom_id: string;
  user_id: string;
  channel_id: string;
  guild_id?: string;
  /** The message the clicked button (or the modal's button) was on. */
  message_id?: string;
  /** Values a modal submission carried, by text input `custom_id`. */
  values?: Record<string, string>;
  /** A component interaction's component: 2 button, 3 string select. */
  component_type?: number;
  /** The option values a string select interaction carried (`data.values`), in the order chosen. */
  selected?: string[];
  locale: string;
  created_at: number;
  /** The accepted first response (at most one). */
  response?: InteractionCallback;
  /** The modal shown by a type-9 response. */
  modal?: DcModal;
  /** The response message (types 4/5), as edited since; ephemeral ones carry `visible_to`. */
  reply?: FakeMessage;
  /** Follow-up messages (`POST /webhooks/{app}/{token}`). */
  followups: FakeMessage[];
}

/** A REST call the fake received (every path, right token or not). */
export interface ApiCall {
  method: string;
  path: string;
  /** The route's name, e.g. `createMessage`, `createInteractionResponse` (`unknown` when none matched). */
  route: string;
  body: unknown;
  status: number;
  /** Discord's error body, for refused calls. */
  error?: { code: number; message: string; errors?: unknown };
  at: number;
}

/** A forced failure for {@link FakeDiscord.failNext}. */
export interface Failure {
  status: number;
  /** Discord JSON error code (e.g. 50001 Missing Access); default 0. */
  code?: number;
  message?: string;
  /** For 429: seconds to wait (body `retry_after` and `Retry-After`). */
  retryAfter?: number;
}

/** A user for {@link FakeDiscord.user}. */
export interface UserInit {
  id: string;
  username: string;
  global_name?: string;
  /** The client locale sent with interactions (`interaction.locale`). Default `en-US`. */
  locale?: string;
  bot?: boolean;
}

/** A gateway session as the fake sees it (test-facing). */
export interface GatewaySessionInfo {
  session_id: string;
  intents: number;
  /** The last sequence number sent. */
  seq: number;
  connected: boolean;
  heartbeats: number;
  resumes: number;
}
