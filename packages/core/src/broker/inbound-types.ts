/** The inbound events channels hand to the broker, and what came of them. */

import type { QuestionRecord } from "../model/types.ts";
import type { RefusalReason } from "./policy.ts";

/** A button tap (or a modal submission, with `text`) from a channel. */
export interface ActionEvent {
  channel: string;
  conversation: string;
  userId: string;
  displayName?: string;
  /** The button payload (`encodeAction`). */
  data: string;
  /** Free text submitted for an Other… action (Discord/Slack modal). */
  text?: string;
  /** For a `choose` control (a select menu, radio buttons, checkboxes): the option indices now selected. */
  values?: number[];
  /**
   * An Other… tap on a platform that opens a modal for the answer (Discord, Slack): checked (who may
   * answer, still pending) but nothing is stored, so a dismissed modal leaves nothing behind; the
   * submission comes back as an event with `text`. Without it (Telegram's force-reply), the person's
   * next reply is taken as their free-text answer.
   */
  opensModal?: boolean;
  locale?: string;
}

/** A text message from a channel. */
export interface ReplyEvent {
  channel: string;
  conversation: string;
  userId: string;
  displayName?: string;
  text: string;
  /** The message this one replies to (Telegram reply_to_message, Slack thread, Discord reference). */
  replyTo?: string;
  /** This message's own id, so confirmations can reply to it. */
  messageId?: string;
  locale?: string;
}

/** A message a channel sent for a question (see `AskUserBroker.rememberMessage`). */
export interface MessageRef {
  channel: string;
  conversation: string;
  messageId: string;
}

/** What came of an inbound event. `text` is the sentence to show the person, in their locale. */
export type InboundOutcome =
  | { kind: "ignored" }
  | { kind: "answered"; record: QuestionRecord; text: string }
  | { kind: "partial"; record: QuestionRecord; text: string }
  | { kind: "skipped"; record: QuestionRecord; text: string }
  | { kind: "awaiting_text"; record: QuestionRecord; text: string; placeholder: string }
  /**
   * A form control changed the shared draft (or, for `view`, nothing): the channel shows `questionIndex`
   * with the record's draft; `text` is a short acknowledgement (`Selected: EU, Asia`), empty for `view`.
   */
  | { kind: "staged"; record: QuestionRecord; questionIndex: number; text: string }
  | { kind: "invalid"; record: QuestionRecord; text: string }
  | { kind: "ambiguous"; records: QuestionRecord[]; text: string }
  | { kind: "refused"; reason: RefusalReason; record: QuestionRecord | undefined; text: string };
