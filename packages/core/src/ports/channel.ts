import type { Delivery, QuestionRecord } from "../model/types.ts";

/**
 * How a platform's events reach us: it pushes to our URL (`webhook`), we hold a connection it pushes over
 * (`connection`: Discord's gateway, Slack's Socket Mode), we ask it (`polling`), or nothing comes back
 * (`none`: an outbound-only transport; answers come through the operator surfaces).
 */
export type ChannelIngress = "webhook" | "connection" | "polling" | "none";

/** What a channel can do; the broker adapts to it. */
export interface ChannelCapabilities {
  /** Native buttons for a prompt with one single-select question. */
  buttons: boolean;
  /** Delivered messages can be edited to the summary after resolution. */
  edit: boolean;
  /** Notices can be shown to one user only (alert, ephemeral message). */
  privateNotices: boolean;
  /**
   * The most buttons one prompt may carry (options, Other… and Skip together). A prompt that needs more
   * is delivered as text only. Default: no limit.
   */
  maxButtons?: number;
  /** The longest button label in characters; longer labels are cut with "…" by the channel. */
  maxButtonLabel?: number;
  /** How this channel, as configured, receives events. Default `"none"` when unset: only what it says. */
  ingress?: ChannelIngress;
}

/** A prompt to deliver. `text` is core's readable-text rendering in `locale`, for channels that use it. */
export interface DeliverRequest {
  record: QuestionRecord;
  locale: string;
  text: string;
  /** True when the prompt should get native buttons (one single-select question, channel has buttons). */
  buttons: boolean;
  /**
   * In a shared conversation where only the creator may answer: their name, for the prompt's "For @alice"
   * line (SPEC §6; already in `text`). Channels that render their own prompt show it too.
   */
  forName?: string;
  /**
   * True when an earlier attempt to deliver this prompt may have reached the platform unheard: repair
   * is delivering a question stored before (after a crash, or an attempt whose answer was lost). A
   * channel that can find its own earlier message (Slack: the message metadata it posts with) should
   * return that message instead of posting a second prompt.
   */
  resend?: boolean;
}

/** Where a delivered message lives; the conversation defaults to the target's. */
export interface DeliveryRef {
  messageId: string;
  conversation?: string;
}

/** Edit one delivered message to the after-resolution summary. */
export interface FinalizeRequest {
  record: QuestionRecord;
  delivery: Delivery;
  locale: string;
  summary: string;
}

/**
 * Re-render a delivered prompt whose shared draft changed (a form control, a text-stepper reply, the web
 * panel): ✓ marks, selected values. The record is the latest stored one; the question is still pending.
 */
export interface RefreshRequest {
  record: QuestionRecord;
  delivery: Delivery;
  locale: string;
}

/**
 * What a notice is (the outcome of the person's reply it answers): `answered` or `skipped` (a complete
 * answer or a skip, recorded), `partial` (part of a form recorded, asks for the rest), `staged` (a choice
 * staged in the draft), `refused` (not theirs, ended, …), `invalid` or `ambiguous` (could not be read),
 * `awaiting_text` (Other…: type your answer).
 */
export type NoticePurpose =
  | "answered"
  | "skipped"
  | "partial"
  | "staged"
  | "refused"
  | "invalid"
  | "ambiguous"
  | "awaiting_text";

/** True for a notice that confirms a recorded answer or skip (the prompt's own edit says the same). */
export function isConfirmation(purpose: NoticePurpose | undefined): boolean {
  return purpose === "answered" || purpose === "skipped";
}

/** A short message to a conversation: a confirmation, a refusal, a hint. */
export interface Notice {
  conversation: string;
  text: string;
  locale: string;
  /** The user it is for; with `private`, only they should see it when the channel can do that. */
  userId?: string;
  private?: boolean;
  /** The user's message it answers, when the platform can thread replies. */
  replyTo?: string;
  /**
   * What the notice is, precise enough to pick a reaction or a style without reading its text (see
   * {@link NoticePurpose}). A channel may show an `answered`/`skipped` confirmation more quietly (a
   * reaction on `replyTo`) when the prompt message's own edit says the same; it then returns `undefined`.
   */
  purpose?: NoticePurpose;
}

/**
 * The channel port: one per platform (Telegram, Discord, Slack, plain text). Channels throw on
 * delivery failure (the question then ends `undeliverable`); the broker catches and records it.
 */
export interface Channel {
  readonly name: string;
  readonly capabilities: ChannelCapabilities;
  /**
   * Resolves once `capabilities` are the channel's own (a channel still connecting may show
   * placeholder ones). The broker awaits it before it reads them for a delivery; it should be bounded
   * (a channel that never gets ready still resolves, or rejects with why).
   */
  ready?(): Promise<void>;
  /** Sends the prompt to `record.target`; returns the message reference kept in the store. */
  deliver(request: DeliverRequest): Promise<DeliveryRef>;
  /** Edits a delivered message to the summary and removes its controls. */
  finalize(request: FinalizeRequest): Promise<void>;
  /**
   * Shows a pending prompt's changed draft in its message (a native form's selections). Called by the
   * broker after every change of the draft, whatever surface made it, one at a time per question.
   * Without it, forms show their draft only when tapped.
   */
  refresh?(request: RefreshRequest): Promise<void>;
  /**
   * Sends a notice; returns its message reference when people can reply to it (the broker records it as
   * the question's, so such a reply routes there), `undefined` for messages nobody can reply to
   * (ephemeral ones).
   */
  notify(notice: Notice): Promise<DeliveryRef | undefined>;
  /**
   * How the platform names a user without notifying anyone (SPEC §5): Discord `<@id>` (sent with mentions
   * suppressed), Slack `<@U…>`, Telegram the user's name. The broker asks once, when a question's
   * creator comes without a `displayName`, and keeps the answer; `undefined` when unknown.
   */
  displayName?(userId: string, conversation?: string): Promise<string | undefined>;
  /**
   * True when `conversation` is a one-to-one chat with the bot (SPEC §5: without a creator, only there
   * may a person answer by chat). Without it, every conversation counts as shared.
   */
  isDirect?(conversation: string): boolean;
  /**
   * How the platform shows a moment in each reader's own time zone (Discord `<t:…:t>`, Slack
   * `<!date^…^{time}|…>`), for times in notices such as "This question expired at …". Without it, UTC.
   */
  formatTime?(epochMs: number, locale: string): string;
}
