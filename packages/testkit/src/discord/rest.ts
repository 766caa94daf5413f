/**
 * The REST routes under `/api/v10`: gateway info, channels, messages, reactions, DMs (interaction routes
 * live in interactions.ts).
 */
import { cannotEditOthers, unknownChannel, unknownMessage, unknownUser } from "./errors.ts";
import { dispatch } from "./gateway.ts";
import { deleteOriginal, editOriginal, followUp, getOriginal, respond } from "./interactions.ts";
import { addOwnReaction, applyEdit, buildMessage, postMessage, sentWithNonce } from "./messages.ts";
import { channelJson, userJson } from "./payloads.ts";
import { apiMessage, dmChannel, findMessage, notify, type State } from "./state.ts";
import type { DcChannel } from "./types.ts";
import { readMessageBody } from "./validate.ts";

/** What a route handler gets. */
export interface RouteContext {
  state: State;
  params: string[];
  body: unknown;
  query: URLSearchParams;
  /** The gateway's `ws://` URL. */
  gatewayUrl: string;
}

/** A handler's answer: status and JSON body (none for 204). */
export interface RouteResult {
  status: number;
  body?: unknown;
}

/** One REST route. `auth: false` routes (interaction callbacks, webhooks) take no bot token. */
export interface Route {
  name: string;
  method: string;
  pattern: RegExp;
  auth: boolean;
  handle(ctx: RouteContext): RouteResult;
}

const ok = (body: unknown): RouteResult => ({ status: 200, body });

function channelOf(state: State, id: string | undefined): DcChannel {
  const channel = id === undefined ? undefined : state.channels.get(id);
  if (!channel) throw unknownChannel();
  return channel;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const SNOWFLAKE = "(\\d{1,20})";

/** Every route the fake answers, matched against the path after `/api/v10`. */
export const ROUTES: Route[] = [
  {
    name: "getGatewayBot",
    method: "GET",
    pattern: /^\/gateway\/bot$/,
    auth: true,
    handle: ({ gatewayUrl }) =>
      ok({
        url: gatewayUrl,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 },
      }),
  },
  {
    name: "getGateway",
    method: "GET",
    pattern: /^\/gateway$/,
    auth: false,
    handle: ({ gatewayUrl }) => ok({ url: gatewayUrl }),
  },
  {
    name: "getCurrentUser",
    method: "GET",
    pattern: /^\/users\/@me$/,
    auth: true,
    handle: ({ state }) => ok({ ...userJson(state.bot), verified: true, mfa_enabled: false, flags: 0 }),
  },
  {
    name: "getUser",
    method: "GET",
    pattern: new RegExp(`^/users/${SNOWFLAKE}$`),
    auth: true,
    handle: ({ state, params }) => {
      const known = state.users.get(params[0] ?? "");
      if (!known) throw unknownUser();
      return ok(userJson(known.user));
    },
  },
  {
    name: "createDM",
    method: "POST",
    pattern: /^\/users\/@me\/channels$/,
    auth: true,
    handle: ({ state, body }) => {
      const recipient = isObject(body) ? String(body.recipient_id ?? "") : "";
      const known = state.users.get(recipient);
      if (!known) throw unknownUser();
      const channel = dmChannel(state, known.user);
      notify(state);
      return ok(channelJson(state, channel));
    },
  },
  {
    name: "getChannel",
    method: "GET",
    pattern: new RegExp(`^/channels/${SNOWFLAKE}$`),
    auth: true,
    handle: ({ state, params }) => ok(channelJson(state, channelOf(state, params[0]))),
  },
  {
    name: "createMessage",
    method: "POST",
    pattern: new RegExp(`^/channels/${SNOWFLAKE}/messages$`),
    auth: true,
    handle: ({ state, params, body }) => {
      const channel = channelOf(state, params[0]);
      const parsed = readMessageBody(body, [], { edit: false });
      if (parsed.nonce !== undefined && parsed.enforce_nonce === true) {
        const earlier = sentWithNonce(state, channel.id, state.bot.id, parsed.nonce);
        if (earlier) return ok(apiMessage(earlier));
      }
      const message = buildMessage(state, { channel, author: state.bot, body: parsed });
      return ok(apiMessage(postMessage(state, message)));
    },
  },
  {
    name: "getMessage",
    method: "GET",
    pattern: new RegExp(`^/channels/${SNOWFLAKE}/messages/${SNOWFLAKE}$`),
    auth: true,
    handle: ({ state, params }) => {
      const channel = channelOf(state, params[0]);
      const message = findMessage(state, channel.id, params[1] ?? "");
      if (!message) throw unknownMessage();
      return ok(apiMessage(message));
    },
  },
  {
    name: "editMessage",
    method: "PATCH",
    pattern: new RegExp(`^/channels/${SNOWFLAKE}/messages/${SNOWFLAKE}$`),
    auth: true,
    handle: ({ state, params, body }) => {
      const channel = channelOf(state, params[0]);
      const message = findMessage(state, channel.id, params[1] ?? "");
      if (!message) throw unknownMessage();
      if (message.author.id !== state.bot.id) throw cannotEditOthers();
      return ok(apiMessage(applyEdit(state, message, readMessageBody(body, [], { edit: true }))));
    },
  },
  {
    name: "deleteMessage",
    method: "DELETE",
    pattern: new RegExp(`^/channels/${SNOWFLAKE}/messages/${SNOWFLAKE}$`),
    auth: true,
    handle: ({ state, params }) => {
      const channel = channelOf(state, params[0]);
      const message = findMessage(state, channel.id, params[1] ?? "");
      if (!message) throw unknownMessage();
      state.messages.get(channel.id)?.delete(message.id);
      dispatch(state, "MESSAGE_DELETE", () => ({
        id: message.id,
        channel_id: channel.id,
        ...(channel.guild_id === undefined ? {} : { guild_id: channel.guild_id }),
      }));
      notify(state);
      return { status: 204 };
    },
  },
  {
    name: "createReaction",
    method: "PUT",
    pattern: new RegExp(`^/channels/${SNOWFLAKE}/messages/${SNOWFLAKE}/reactions/([^/]+)/@me$`),
    auth: true,
    handle: ({ state, params }) => {
      const channel = channelOf(state, params[0]);
      const message = findMessage(state, channel.id, params[1] ?? "");
      if (!message) throw unknownMessage();
      addOwnReaction(state, message, params[2] ?? "");
      return { status: 204 };
    },
  },
  {
    name: "createInteractionResponse",
    method: "POST",
    pattern: new RegExp(`^/interactions/${SNOWFLAKE}/([^/]+)/callback$`),
    auth: false,
    handle: ({ state, params, body, query }) => respond(state, params[0] ?? "", params[1] ?? "", body, query),
  },
  {
    name: "getOriginalInteractionResponse",
    method: "GET",
    pattern: new RegExp(`^/webhooks/${SNOWFLAKE}/([^/]+)/messages/@original$`),
    auth: false,
    handle: ({ state, params }) => ok(getOriginal(state, params[0] ?? "", params[1] ?? "")),
  },
  {
    name: "editOriginalInteractionResponse",
    method: "PATCH",
    pattern: new RegExp(`^/webhooks/${SNOWFLAKE}/([^/]+)/messages/@original$`),
    auth: false,
    handle: ({ state, params, body }) => ok(editOriginal(state, params[0] ?? "", params[1] ?? "", body)),
  },
  {
    name: "deleteOriginalInteractionResponse",
    method: "DELETE",
    pattern: new RegExp(`^/webhooks/${SNOWFLAKE}/([^/]+)/messages/@original$`),
    auth: false,
    handle: ({ state, params }) => {
      deleteOriginal(state, params[0] ?? "", params[1] ?? "");
      return { status: 204 };
    },
  },
  {
    name: "createFollowupMessage",
    method: "POST",
    pattern: new RegExp(`^/webhooks/${SNOWFLAKE}/([^/]+)$`),
    auth: false,
    handle: ({ state, params, body }) => ok(followUp(state, params[0] ?? "", params[1] ?? "", body)),
  },
];

/** The route for a method and path (after `/api/v10`), with its captured parameters. */
export function matchRoute(method: string, path: string): { route: Route; params: string[] } | undefined {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(path);
    if (match) return { route, params: match.slice(1).map((p) => p ?? "") };
  }
  return undefined;
}
