/** The fake Discord: one node:http server on 127.0.0.1 for REST (`/api/v10/...`) and the gateway upgrade. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ChannelInit, FakeDiscord, FakeDiscordOptions, GuildInit } from "./fake-api.ts";
import { createGateway, dispatch } from "./gateway.ts";
import { createHolds } from "./hold.ts";
import { createRequestHandler } from "./http.ts";
import { DEFAULT_WAIT_MS, HEARTBEAT_INTERVAL_MS, INTERACTION_RESPONSE_DEADLINE_MS } from "./limits.ts";
import { channelJson } from "./payloads.ts";
import { findMessage, notify, type State, waitUntil } from "./state.ts";
import { renderMessageText } from "./text.ts";
import type { DcComponent, DcUser } from "./types.ts";
import { createFakeUser } from "./users.ts";

export type { ChannelInit, FakeDiscord, FakeDiscordOptions, GuildInit } from "./fake-api.ts";

/** Every button of a message, in order (rows flattened). */
export function buttonsOf(message: { components: DcComponent[] } | undefined): DcComponent[] {
  return (message?.components ?? []).flatMap((row) => (row.components ?? []).filter((c) => c.type === 2));
}

const DEFAULT_GUILD: GuildInit = {
  id: "100000000000000100",
  name: "Fake Guild",
  channels: [
    { id: "100000000000000101", name: "general" },
    { id: "100000000000000102", name: "help-thread", type: "thread", parentId: "100000000000000101" },
  ],
};

function addChannel(state: State, guildId: string, init: ChannelInit, position: number): void {
  state.channels.set(init.id, {
    id: init.id,
    type: init.type === "thread" ? 11 : 0,
    guild_id: guildId,
    name: init.name,
    parent_id: init.parentId ?? null,
    position,
    last_message_id: null,
  });
}

/**
 * Starts a fake Discord (REST + gateway) on 127.0.0.1 (random port) for the real discord.js.
 *
 * @example
 * ```ts
 * const discord = await createFakeDiscord();
 * const client = new Client({
 *   intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages],
 *   partials: [Partials.Channel],
 *   rest: { api: discord.apiUrl },
 * });
 * await client.login(discord.token);
 * discord.user({ id: "42", username: "ada" }).send(discord.guild.channelId, "hi");
 * await client.destroy(); // the client first, then the fake
 * await discord.close();
 * ```
 */
export async function createFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const botId = options.botId ?? "100000000000000001";
  const bot: DcUser = {
    id: botId,
    username: options.botUsername ?? "ask_user_bot",
    global_name: null,
    discriminator: "0",
    avatar: null,
    bot: true,
  };
  const state: State = {
    token: options.token ?? "fake-discord-token",
    bot,
    applicationId: options.applicationId ?? botId,
    now: options.now ?? Date.now,
    responseDeadlineMs: options.responseDeadlineMs ?? INTERACTION_RESPONSE_DEADLINE_MS,
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS,
    privilegedIntents: options.privilegedIntents ?? true,
    calls: [],
    users: new Map(),
    guilds: new Map(),
    channels: new Map(),
    messages: new Map(),
    ephemerals: new Map(),
    shownButtons: new Map(),
    dms: new Map(),
    interactions: new Map(),
    interactionList: [],
    failures: new Map(),
    sessions: new Map(),
    lastSnowflake: 0n,
    closed: false,
    listeners: new Set(),
  };
  const guilds = options.guilds ?? [DEFAULT_GUILD];
  for (const init of guilds) {
    const joinedAt = new Date(state.now()).toISOString();
    state.guilds.set(init.id, {
      id: init.id,
      name: init.name ?? "Fake Guild",
      preferredLocale: init.locale ?? "en-US",
      ownerId: botId,
      members: new Map([[botId, { joinedAt }]]),
    });
    init.channels.forEach((channel, index) => {
      addChannel(state, init.id, channel, index);
    });
  }

  let port = 0;
  const gateway = createGateway(state, () => `ws://127.0.0.1:${port}/gateway`);
  const holds = createHolds(state);
  const server = createServer(createRequestHandler(state, () => `ws://127.0.0.1:${port}/gateway`, holds));
  server.on("upgrade", (req, socket, head) => gateway.handleUpgrade(req, socket, head));

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const first = guilds[0];
  const firstText = first?.channels.find((c) => c.type !== "thread");
  const firstThread = first?.channels.find((c) => c.type === "thread");

  return {
    apiUrl: `http://127.0.0.1:${port}/api`,
    gatewayUrl: `ws://127.0.0.1:${port}/gateway`,
    token: state.token,
    bot: { ...bot },
    applicationId: state.applicationId,
    guild: { id: first?.id ?? "", channelId: firstText?.id ?? "", threadId: firstThread?.id },
    calls: state.calls,
    interactions: state.interactionList,
    user(init) {
      let known = state.users.get(init.id);
      if (!known) {
        const user: DcUser = {
          id: init.id,
          username: init.username,
          global_name: init.global_name ?? null,
          discriminator: "0",
          avatar: null,
        };
        if (init.bot) user.bot = true;
        known = { user, locale: init.locale ?? "en-US" };
        state.users.set(init.id, known);
      }
      return createFakeUser(state, known);
    },
    addChannel(init) {
      const guildId = init.guildId ?? first?.id ?? "";
      if (!state.guilds.has(guildId)) throw new Error(`fake Discord: no guild ${guildId}`);
      addChannel(state, guildId, init, state.channels.size);
      const channel = state.channels.get(init.id);
      if (channel) {
        const json = channelJson(state, channel);
        dispatch(state, channel.type === 11 ? "THREAD_CREATE" : "CHANNEL_CREATE", (session) =>
          (session.intents & 1) !== 0
            ? { ...json, ...(channel.type === 11 ? { newly_created: true } : {}) }
            : undefined,
        );
      }
      notify(state);
      return init.id;
    },
    messages: (channelId) =>
      [...(state.messages.get(channelId)?.values() ?? [])].map((m) => structuredClone(m)),
    message(channelId, messageId) {
      const found = findMessage(state, channelId, messageId);
      return found && structuredClone(found);
    },
    messageText(channelId, messageId) {
      const found = findMessage(state, channelId, messageId);
      if (!found) throw new Error(`fake Discord: no message ${messageId} in channel ${channelId}`);
      const user = (id: string) => (id === botId ? state.bot : state.users.get(id)?.user);
      return renderMessageText(found, {
        userName: (id) => {
          const known = user(id);
          return known && (known.global_name ?? known.username);
        },
        channelName: (id) => state.channels.get(id)?.name,
        now: state.now(),
      });
    },
    ephemerals: (userId) => (state.ephemerals.get(userId) ?? []).map((m) => structuredClone(m)),
    dmChannelId: (userId) => state.dms.get(userId),
    interaction: (id) => state.interactions.get(id)?.record,
    sessions: () =>
      [...state.sessions.values()].map((s) => ({
        session_id: s.id,
        intents: s.intents,
        seq: s.seq,
        connected: s.socket !== undefined,
        heartbeats: s.heartbeats,
        resumes: s.resumes,
      })),
    hold: (route) => holds.hold(route),
    failNext(route, failure) {
      state.failures.set(route, [...(state.failures.get(route) ?? []), failure]);
    },
    dropConnections: (code = 4000) => gateway.drop(code),
    waitFor: (predicate, timeoutMs = DEFAULT_WAIT_MS) =>
      waitUntil(state, () => state.calls.find(predicate), timeoutMs, "a matching REST call"),
    waitUntil: (check, timeoutMs = DEFAULT_WAIT_MS) => waitUntil(state, check, timeoutMs),
    waitForResponse(interaction, timeoutMs = DEFAULT_WAIT_MS) {
      const id = typeof interaction === "string" ? interaction : interaction.id;
      return waitUntil(
        state,
        () => state.interactions.get(id)?.record.response,
        timeoutMs,
        `a response to interaction ${id}`,
      );
    },
    async close() {
      if (state.closed) return;
      state.closed = true;
      holds.dropAll();
      notify(state);
      await gateway.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
