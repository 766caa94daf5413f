import {
  type AskUserBroker,
  type Clock,
  createAskUser,
  createMemoryStore,
  createTextChannel,
  type Target,
  type UserRef,
} from "@ask-user/core";
import { afterEach } from "vitest";

const brokers: AskUserBroker[] = [];
afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
});

/** One message in the chat, as the person sees it now (edits replace the text). */
export interface ChatMessage {
  id: string;
  text: string;
}

/**
 * A core broker in this process with one plain-text chat: what the bot sends lands in `messages`
 * (edits replace the text, as a chat app shows them), and `reply(text)` is the person typing an
 * answer. Alice is the run's creator, so she may answer.
 */
export function textChat(options: { clock?: Clock } = {}) {
  const messages: ChatMessage[] = [];
  let next = 1;
  const channel = createTextChannel({
    name: "chat",
    async send(_conversation, text) {
      const id = String(next++);
      messages.push({ id, text });
      return id;
    },
    async edit(_conversation, messageId, text) {
      const message = messages.find((m) => m.id === messageId);
      if (message) message.text = text;
    },
  });
  const broker = createAskUser({
    store: createMemoryStore(),
    channels: [channel],
    ...(options.clock ? { clock: options.clock } : {}),
  });
  brokers.push(broker);
  const target: Target = { channel: "chat", conversation: "c1" };
  const creator: UserRef = { channel: "chat", userId: "alice", displayName: "@alice" };
  return {
    broker,
    target,
    creator,
    messages,
    /** Alice types `text` in the chat. */
    reply(text: string) {
      return broker.handleReply({
        channel: "chat",
        conversation: "c1",
        userId: "alice",
        displayName: "@alice",
        text,
      });
    },
    /** Resolves once the chat shows a message containing `text` (or matching it). */
    async shows(text: string | RegExp): Promise<ChatMessage> {
      const matches = (m: ChatMessage) =>
        typeof text === "string" ? m.text.includes(text) : text.test(m.text);
      return until(() => messages.find(matches));
    },
  };
}

/** Polls `check` every 20 ms until it returns a value, for at most `timeoutMs`. */
export async function until<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The tool input a model sends in these tests. */
export const deployInput = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging (Recommended)", description: "Safe" }, { label: "Production" }],
    },
  ],
};
