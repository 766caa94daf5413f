import type { Channel } from "../ports/channel.ts";

/** What a text-only transport must offer: send a message, and optionally edit one. */
export interface TextTransport {
  /** The channel's name, used in targets (`{ channel: name, conversation }`). */
  name: string;
  /** Sends `text` to a conversation; returns the new message's id. */
  send(conversation: string, text: string, options: { replyTo?: string }): Promise<string | number>;
  /** Replaces a message's text; without it, summaries are sent as new messages. */
  edit?(conversation: string, messageId: string, text: string): Promise<void>;
  /**
   * Whether a conversation is one-to-one (SPEC §5). Default: every conversation is (an SMS or e-mail
   * thread is with one person); a transport that bridges group chats says which are groups.
   */
  isDirect?(conversation: string): boolean;
}

/**
 * A complete channel for any text-only transport (SMS, e-mail, IRC, a webhook): prompts as readable
 * text, answers as text replies through `broker.handleReply`, summaries by edit or as a new message.
 *
 * @example
 * const text = createTextChannel({ name: "sms", send: async (to, body) => sms.send(to, body) });
 * const askUser = createAskUser({ store: createMemoryStore(), channels: [text] });
 * // on an incoming SMS: await askUser.handleReply({ channel: "sms", conversation: from, userId: from, text: body });
 */
export function createTextChannel(transport: TextTransport): Channel {
  return {
    name: transport.name,
    capabilities: { buttons: false, edit: transport.edit !== undefined, privateNotices: false },
    isDirect: (conversation) => transport.isDirect?.(conversation) ?? true,
    async deliver({ record, text }) {
      const conversation = record.target?.conversation;
      if (conversation === undefined) throw new TypeError("The question has no target conversation.");
      return { messageId: String(await transport.send(conversation, text, {})) };
    },
    async finalize({ record, delivery, summary }) {
      if (transport.edit) {
        await transport.edit(delivery.conversation, delivery.messageId, summary);
        return;
      }
      // Text replies in this conversation were already confirmed ("Recorded: …"): no second message.
      if (delivery.kind === "prompt" && record.resolvedBy?.channel !== transport.name) {
        await transport.send(delivery.conversation, summary, { replyTo: delivery.messageId });
      }
    },
    async notify({ conversation, text, replyTo }) {
      const options = replyTo === undefined ? {} : { replyTo };
      return { messageId: String(await transport.send(conversation, text, options)) };
    },
  };
}
