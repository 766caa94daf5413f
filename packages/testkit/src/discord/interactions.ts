/**
 * Interaction responses: the callback (types 4, 5, 6, 7, 9) within the 3 s deadline and only once,
 * then the webhook routes (`@original`, follow-ups) for 15 minutes.
 */
import {
  alreadyAcknowledged,
  FormErrors,
  invalidWebhookToken,
  unknownInteraction,
  unknownMessage,
  unknownWebhook,
} from "./errors.ts";
import { FLAG_EPHEMERAL, INTERACTION_TOKEN_TTL_MS } from "./limits.ts";
import { applyEdit, buildMessage, postMessage } from "./messages.ts";
import type { RouteResult } from "./rest.ts";
import {
  apiMessage,
  findMessage,
  type InteractionState,
  notify,
  type State,
  storeEphemeral,
} from "./state.ts";
import type { DcMessage, FakeMessage } from "./types.ts";
import { type MessageBody, readMessageBody } from "./validate.ts";
import { readModal } from "./validate-modal.ts";

const LOADING = 1 << 7;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalidType(type: unknown, why: string): never {
  const errors = new FormErrors();
  errors.add(["type"], "INTERACTION_RESPONSE_TYPE_INVALID", `${why} (type ${String(type)})`);
  errors.throwIfAny();
  throw new Error("unreachable");
}

/** Creates the response message of a type 4/5 callback or a follow-up (ephemeral: seen by the user only). */
function responseMessage(state: State, interaction: InteractionState, body: MessageBody): FakeMessage {
  const r = interaction.record;
  const channel = state.channels.get(r.channel_id);
  if (!channel) throw unknownMessage();
  const message = buildMessage(state, { channel, author: state.bot, body, webhookId: state.applicationId });
  if (((body.flags ?? 0) & FLAG_EPHEMERAL) !== 0) {
    message.visible_to = r.user_id;
    storeEphemeral(state, r.user_id, message);
    return message;
  }
  return postMessage(state, message);
}

/** The message a component interaction is bound to (what types 6/7 update). */
function boundMessage(state: State, interaction: InteractionState): FakeMessage | undefined {
  const at = interaction.message;
  return at && findMessage(state, at.channelId, at.id);
}

/** `POST /interactions/{id}/{token}/callback`. */
export function respond(
  state: State,
  id: string,
  token: string,
  body: unknown,
  query: URLSearchParams,
): RouteResult {
  const interaction = state.interactions.get(id);
  if (!interaction || interaction.record.token !== token) throw unknownInteraction();
  const r = interaction.record;
  if (r.response) throw alreadyAcknowledged();
  const elapsed = performance.now() - interaction.createdAtMs;
  if (elapsed > state.responseDeadlineMs) throw unknownInteraction();
  const source = isObject(body) ? body : {};
  const type = source.type;
  const data = isObject(source.data) ? source.data : undefined;
  switch (type) {
    case 4:
      r.reply = responseMessage(state, interaction, readMessageBody(data, ["data"], { edit: false }));
      break;
    case 5: {
      const flags = typeof data?.flags === "number" ? data.flags : 0;
      r.reply = responseMessage(state, interaction, { content: "", flags: flags | LOADING });
      break;
    }
    case 6:
    case 7: {
      const message = boundMessage(state, interaction);
      if (!message) invalidType(type, "This interaction has no message to update");
      if (type === 7) applyEdit(state, message, readMessageBody(data, ["data"], { edit: true }));
      break;
    }
    case 9:
      if (r.type !== 3) invalidType(type, "A modal cannot answer a modal submission");
      r.modal = readModal(data);
      break;
    default:
      invalidType(type, "Unknown interaction response type");
  }
  r.response = { type: type as number, elapsed_ms: Math.round(elapsed) };
  if (data !== undefined) r.response.data = structuredClone(data);
  notify(state);
  if (query.get("with_response") !== "true") return { status: 204 };
  const resource: Record<string, unknown> = { type };
  if (r.reply) resource.message = apiMessage(r.reply);
  return {
    status: 200,
    body: {
      interaction: {
        id: r.id,
        type: r.type,
        activity_instance_id: null,
        response_message_id: r.reply?.id ?? null,
      },
      resource,
    },
  };
}

/** The acknowledged interaction of a webhook token (within its 15 minutes). */
function byToken(state: State, applicationId: string, token: string): InteractionState {
  const interaction =
    applicationId === state.applicationId
      ? [...state.interactions.values()].find((i) => i.record.token === token)
      : undefined;
  if (!interaction?.record.response) throw unknownWebhook();
  if (state.now() - interaction.record.created_at > INTERACTION_TOKEN_TTL_MS) throw invalidWebhookToken();
  return interaction;
}

/** The original response: the reply (types 4/5) or the component's message (types 6/7). */
function original(state: State, interaction: InteractionState): FakeMessage {
  const type = interaction.record.response?.type;
  const message = type === 6 || type === 7 ? boundMessage(state, interaction) : interaction.record.reply;
  if (!message) throw unknownMessage();
  return message;
}

/** `GET /webhooks/{app}/{token}/messages/@original`. */
export function getOriginal(state: State, applicationId: string, token: string): DcMessage {
  return apiMessage(original(state, byToken(state, applicationId, token)));
}

/** `PATCH /webhooks/{app}/{token}/messages/@original`: edits the reply, or the component's message after 6/7. */
export function editOriginal(state: State, applicationId: string, token: string, body: unknown): DcMessage {
  const interaction = byToken(state, applicationId, token);
  const message = original(state, interaction);
  const parsed = readMessageBody(body, [], { edit: true });
  message.flags &= ~LOADING;
  if (parsed.flags !== undefined) parsed.flags = (parsed.flags & ~LOADING) | (message.flags & FLAG_EPHEMERAL);
  return apiMessage(applyEdit(state, message, parsed));
}

/** `DELETE /webhooks/{app}/{token}/messages/@original`. */
export function deleteOriginal(state: State, applicationId: string, token: string): void {
  const interaction = byToken(state, applicationId, token);
  const message = original(state, interaction);
  if (message.visible_to !== undefined) {
    const list = state.ephemerals.get(message.visible_to) ?? [];
    state.ephemerals.set(
      message.visible_to,
      list.filter((m) => m !== message),
    );
  } else {
    state.messages.get(message.channel_id)?.delete(message.id);
  }
  notify(state);
}

/** `POST /webhooks/{app}/{token}`: a follow-up message (ephemeral with flags 64). */
export function followUp(state: State, applicationId: string, token: string, body: unknown): DcMessage {
  const interaction = byToken(state, applicationId, token);
  const message = responseMessage(state, interaction, readMessageBody(body, [], { edit: false }));
  interaction.record.followups.push(message);
  notify(state);
  return apiMessage(message);
}
