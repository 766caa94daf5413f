/**
 * Fake Discord for tests: REST (`/api/v10`) and the WebSocket gateway on one local server that the
 * real discord.js talks to over 127.0.0.1.
 *
 * @example
 * ```ts
 * import { createFakeDiscord } from "@ask-user/testkit/discord";
 * const discord = await createFakeDiscord();
 * const client = new Client({ intents, partials: [Partials.Channel], rest: { api: discord.apiUrl } });
 * await client.login(discord.token);
 * ```
 */
export type { HeldCalls } from "./hold.ts";
export * as discordLimits from "./limits.ts";
export {
  buttonsOf,
  type ChannelInit,
  createFakeDiscord,
  type FakeDiscord,
  type FakeDiscordOptions,
  type GuildInit,
} from "./server.ts";
export { type MessageLike, type MessageTextOptions, renderMessageText } from "./text.ts";
export type {
  ApiCall,
  DcChannel,
  DcComponent,
  DcMember,
  DcMessage,
  DcMessageReference,
  DcModal,
  DcReaction,
  DcUser,
  Failure,
  FakeInteraction,
  FakeMessage,
  GatewaySessionInfo,
  InteractionCallback,
  Pings,
  UserInit,
} from "./types.ts";
export type { ClickOptions, FakeDiscordUser, SendOptions } from "./users.ts";
