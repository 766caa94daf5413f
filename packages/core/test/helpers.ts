import type { Channel, DeliverRequest, FinalizeRequest, Notice } from "../src/ports/channel.ts";
import type { AskUserLogger } from "../src/ports/logger.ts";

/** A channel double that records what a user would see: prompts, edits to summaries and notices. */
export interface RecordingChannel extends Channel {
  delivered: DeliverRequest[];
  finalized: FinalizeRequest[];
  notices: Notice[];
  /** Current text of each message by id, as a user would see it now. */
  messages: Map<string, string>;
  failDelivery: Error | undefined;
  /** Whether its conversations are one-to-one chats (default true; set false for a group). */
  direct: boolean;
}

export function recordingChannel(
  name = "chat",
  capabilities = { buttons: true, edit: true, privateNotices: true },
) {
  let nextId = 100;
  const channel: RecordingChannel = {
    name,
    capabilities,
    delivered: [],
    finalized: [],
    notices: [],
    messages: new Map(),
    failDelivery: undefined,
    direct: true,
    isDirect: () => channel.direct,
    async deliver(request) {
      if (channel.failDelivery) throw channel.failDelivery;
      channel.delivered.push(request);
      const id = String(nextId++);
      channel.messages.set(id, request.text);
      return { messageId: id };
    },
    async finalize(request) {
      channel.finalized.push(request);
      channel.messages.set(request.delivery.messageId, request.summary);
    },
    async notify(notice) {
      channel.notices.push(notice);
      const id = String(nextId++);
      channel.messages.set(id, notice.text);
      return { messageId: id };
    },
  };
  return channel;
}

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

export const severalInput = {
  questions: [
    {
      id: "env",
      header: "Env",
      question: "Which environment?",
      options: [{ label: "Staging" }, { label: "Prod" }],
    },
    {
      id: "regions",
      header: "Regions",
      question: "Which regions?",
      options: [{ label: "EU" }, { label: "US" }, { label: "Asia" }],
      multiSelect: true,
    },
  ],
};

export const T0 = Date.UTC(2026, 11, 2, 14, 5);

/** A logger that keeps what it was told, so tests can assert on it and the output stays quiet. */
export function recordingLogger() {
  const lines: Array<{ level: string; message: string; details: Record<string, unknown> }> = [];
  const logger: AskUserLogger & { lines: typeof lines } = {
    lines,
    warn: (details, message) => lines.push({ level: "warn", message, details }),
    error: (details, message) => lines.push({ level: "error", message, details }),
  };
  return logger;
}
