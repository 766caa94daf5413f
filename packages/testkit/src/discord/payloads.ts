/** Discord API objects built from the fake's state: channels, members, guilds (GUILD_CREATE), interactions. */
import type { Guild, InteractionState, State } from "./state.ts";
import type { DcChannel, DcMember, DcMessage, DcUser } from "./types.ts";

/** Every permission bit: the fake's bot and members may do everything. */
export const ALL_PERMISSIONS = "2251799813685247";

/** A user object as the API shows it. */
export function userJson(user: DcUser): DcUser {
  return { ...user };
}

/** A channel object as `GET /channels/{id}` and GUILD_CREATE show it. */
export function channelJson(state: State, channel: DcChannel): Record<string, unknown> {
  if (channel.type === 1) {
    return { ...structuredClone(channel), recipients: (channel.recipients ?? []).map(userJson) };
  }
  const base: Record<string, unknown> = {
    id: channel.id,
    type: channel.type,
    guild_id: channel.guild_id,
    name: channel.name,
    position: channel.position ?? 0,
    permission_overwrites: [],
    parent_id: channel.parent_id ?? null,
    nsfw: false,
    topic: null,
    rate_limit_per_user: 0,
    last_message_id: channel.last_message_id ?? null,
    flags: 0,
  };
  if (channel.type === 11) {
    base.owner_id = state.bot.id;
    base.member_count = 1;
    base.message_count = 0;
    base.thread_metadata = {
      archived: false,
      auto_archive_duration: 1440,
      archive_timestamp: new Date(state.now()).toISOString(),
      locked: false,
    };
  }
  return base;
}

/** A guild member (with `user` unless `withUser` is false, as in message payloads). */
export function memberJson(state: State, guild: Guild, user: DcUser, withUser = true): DcMember {
  const member: DcMember = {
    nick: null,
    roles: [],
    joined_at: guild.members.get(user.id)?.joinedAt ?? new Date(state.now()).toISOString(),
    deaf: false,
    mute: false,
    flags: 0,
  };
  if (withUser) member.user = userJson(user);
  return member;
}

/** The GUILD_CREATE payload of a guild: its channels, threads, the @everyone role and the bot member. */
export function guildCreateJson(state: State, guild: Guild): Record<string, unknown> {
  const channels = [...state.channels.values()].filter((c) => c.guild_id === guild.id);
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    owner_id: guild.ownerId,
    unavailable: false,
    large: false,
    member_count: guild.members.size,
    joined_at: new Date(state.now()).toISOString(),
    preferred_locale: guild.preferredLocale,
    features: [],
    emojis: [],
    stickers: [],
    voice_states: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    mfa_level: 0,
    nsfw_level: 0,
    premium_tier: 0,
    afk_timeout: 300,
    system_channel_id: null,
    roles: [
      {
        id: guild.id,
        name: "@everyone",
        permissions: ALL_PERMISSIONS,
        position: 0,
        color: 0,
        hoist: false,
        managed: false,
        mentionable: false,
        flags: 0,
      },
    ],
    channels: channels.filter((c) => c.type !== 11).map((c) => channelJson(state, c)),
    threads: channels.filter((c) => c.type === 11).map((c) => channelJson(state, c)),
    members: [memberJson(state, guild, state.bot)],
  };
}

/** The INTERACTION_CREATE payload of a click, a select or a modal submission. */
export function interactionJson(
  state: State,
  interaction: InteractionState,
  user: DcUser,
  message: DcMessage | undefined,
): Record<string, unknown> {
  const r = interaction.record;
  const channel = state.channels.get(r.channel_id);
  const guild = r.guild_id === undefined ? undefined : state.guilds.get(r.guild_id);
  const data: Record<string, unknown> =
    r.type === 3
      ? {
          custom_id: r.custom_id,
          component_type: r.component_type ?? 2,
          ...(r.selected === undefined ? {} : { values: [...r.selected] }),
        }
      : {
          custom_id: r.custom_id,
          components: Object.entries(r.values ?? {}).map(([customId, value]) => ({
            type: 1,
            components: [{ type: 4, custom_id: customId, value }],
          })),
        };
  const payload: Record<string, unknown> = {
    id: r.id,
    application_id: state.applicationId,
    type: r.type,
    data,
    channel_id: r.channel_id,
    channel: channel ? channelJson(state, channel) : { id: r.channel_id, type: 0 },
    token: r.token,
    version: 1,
    app_permissions: ALL_PERMISSIONS,
    locale: r.locale,
    entitlements: [],
    authorizing_integration_owners: guild ? { "0": guild.id } : { "1": user.id },
    context: guild ? 0 : 1,
    attachment_size_limit: 10_485_760,
  };
  if (guild) {
    payload.guild_id = guild.id;
    payload.guild_locale = guild.preferredLocale;
    payload.member = { ...memberJson(state, guild, user), permissions: ALL_PERMISSIONS };
  } else {
    payload.user = userJson(user);
  }
  if (message) payload.message = message;
  return payload;
}
