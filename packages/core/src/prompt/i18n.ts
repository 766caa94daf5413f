/**
 * The message catalogue: every fixed string a user sees, in English and German (SPEC §6).
 * Parameterised messages are functions. Add a language by adding a `Messages` object.
 */

export type Locale = "en" | "de";

export interface Messages {
  locale: Locale;
  other: string;
  skip: string;
  skipWords: string[];
  otherPrefixes: string[];
  yourAnswer: string;
  /** The submit button of a free-text form (Discord/Slack modal, web panel). */
  send: string;
  recommended: string;
  expiresAt: (time: string) => string;
  questionOf: (index: number, total: number) => string;
  howToReplySingle: string;
  howToReplyMulti: string;
  howToReplySeveral: (example: string) => string;
  howToSkip: string;
  otherHint: string;
  replyHint: string;
  recorded: (summary: string) => string;
  recordedPartial: (summary: string, missing: string) => string;
  /** A form control's acknowledgement: what this question now has selected (`EU, Asia`). */
  selected: (values: string) => string;
  /** A form control's acknowledgement when the question now has nothing selected. */
  nothingSelected: string;
  /** Send on a form that misses answers: their headers (`Regions, Window`). */
  stillNeeded: (headers: string) => string;
  /** The form's buttons: previous and next question. */
  back: string;
  next: string;
  skipped: string;
  typeYourAnswer: string;
  refusedForOther: (who: string) => string;
  /** The question is for its creator, whose name is unknown (never shown as a raw id). */
  refusedForSomeoneElse: string;
  refusedNotAllowed: string;
  /** A group question without a creator, with only the creator allowed: nobody may answer by chat. */
  refusedNoCreator: string;
  refusedAnsweredBy: (who: string) => string;
  refusedAnswered: string;
  refusedExpired: (time: string) => string;
  refusedSkipped: string;
  refusedCancelled: string;
  refusedUndeliverable: string;
  refusedUnknown: string;
  ambiguous: (list: string) => string;
  invalidNumber: (given: string, max: number) => string;
  invalidEmpty: string;
  invalidUnknownKey: (key: string, keys: string) => string;
  invalidOneLine: (header: string) => string;
  invalidOtherEmpty: string;
  invalidSkipAlone: string;
  invalidTooManyLines: (lines: number, open: number) => string;
  invalidTooLong: (max: number) => string;
  summaryAnswered: string;
  summarySkipped: string;
  summaryExpired: string;
  summaryCancelled: string;
  summaryUndeliverable: string;
  summaryBy: (who: string) => string;
  /** Ended without an answer, with what was asked: `Deploy — skipped by @alice`. */
  summarySkippedBy: (headers: string, who: string) => string;
  summaryExpiredOf: (headers: string) => string;
  summaryCancelledOf: (headers: string) => string;
  summaryUndeliverableOf: (headers: string) => string;
  /** The prompt's line in a shared conversation: who may answer. */
  forWhom: (name: string) => string;
  /** Someone on an operator surface: `alice via HTTP API`. */
  via: (name: string, surface: string) => string;
  /** An operator who gave no name. */
  anOperator: string;
  /** A chat user the platform gave no name for. */
  someone: string;
  /** The operator surfaces, as people read them. */
  surfaces: Record<"web" | "http" | "cli" | "mcp", string>;
  emptyAnswer: string;
  /** A shared conversation's prompt while the bot cannot read ordinary messages there (Discord without Message Content). */
  mentionToAnswer: (mention: string) => string;
}

const en: Messages = {
  locale: "en",
  other: "Other…",
  skip: "Skip",
  skipWords: ["skip", "/skip"],
  otherPrefixes: ["other:"],
  yourAnswer: "Your answer",
  send: "Send",
  recommended: "recommended",
  expiresAt: (time) => `Expires at ${time}.`,
  questionOf: (index, total) => `Question ${index} of ${total}`,
  howToReplySingle: "Reply with the option's number or label, or with your own answer.",
  howToReplyMulti: "Reply with one or more numbers or labels, separated by commas, or with your own answer.",
  howToReplySeveral: (example) => `Reply with one line per question, e.g. ${example}`,
  howToSkip: 'Reply "skip" to skip.',
  otherHint: 'Anything else you write is taken as your own answer ("other: …" forces that).',
  replyHint: "Reply to this message to answer.",
  recorded: (summary) => `Recorded: ${summary}`,
  recordedPartial: (summary, missing) => `Recorded: ${summary}.\nStill needed:\n${missing}`,
  selected: (values) => `Selected: ${values}`,
  nothingSelected: "Nothing selected.",
  stillNeeded: (headers) => `Still needed: ${headers}.`,
  back: "‹ Back",
  next: "Next ›",
  skipped: "Skipped.",
  typeYourAnswer: "Type your answer as a reply.",
  refusedForOther: (who) => `This question is for ${who}.`,
  refusedForSomeoneElse: "This question is for someone else.",
  refusedNotAllowed: "You may not answer this question.",
  refusedNoCreator:
    "Nobody was named to answer this question in this chat: it is answered in the web panel or by the operator.",
  refusedAnsweredBy: (who) => `This question was already answered by ${who}.`,
  refusedAnswered: "This question was already answered.",
  refusedExpired: (time) => `This question expired at ${time}.`,
  refusedSkipped: "This question was skipped.",
  refusedCancelled: "This question was cancelled.",
  refusedUndeliverable: "This question could not be delivered and is closed.",
  refusedUnknown: "This question is no longer known.",
  ambiguous: (list) => `Several questions are waiting:\n${list}\nReply to the message of the one you mean.`,
  invalidNumber: (given, max) =>
    `There is no option ${given}: choose a number from 1 to ${max}, a label, or write your own answer after "other:".`,
  invalidEmpty: "The reply is empty.",
  invalidUnknownKey: (key, keys) => `"${key}" is not one of the questions (${keys}).`,
  invalidOneLine: (header) => `Give one answer for ${header}.`,
  invalidOtherEmpty: 'Write your own answer after "other:".',
  invalidSkipAlone: 'To skip, reply "skip" on its own.',
  invalidTooManyLines: (lines, open) =>
    open === 0
      ? 'Every question already has an answer. To change one, start the line with its number, e.g. "1: …".'
      : `${lines} lines without a question number, but only ${open === 1 ? "1 question is" : `${open} questions are`} open. Write one answer per line, or start a line with the question's number, e.g. "2: …".`,
  invalidTooLong: (max) => `The reply is too long: at most ${max} characters.`,
  summaryAnswered: "✅",
  summarySkipped: "⏭ Skipped",
  summaryExpired: "⌛ Expired",
  summaryCancelled: "✖ Cancelled",
  summaryUndeliverable: "⚠ Not delivered",
  summaryBy: (who) => ` — ${who}`,
  summarySkippedBy: (headers, who) => `⏭ ${headers} — skipped${who ? ` by ${who}` : ""}`,
  summaryExpiredOf: (headers) => `⌛ ${headers} — expired`,
  summaryCancelledOf: (headers) => `✖ ${headers} — cancelled`,
  summaryUndeliverableOf: (headers) => `⚠ ${headers} — not delivered`,
  forWhom: (name) => `For ${name}`,
  via: (name, surface) => `${name} via ${surface}`,
  anOperator: "an operator",
  someone: "someone",
  surfaces: { web: "the web panel", http: "HTTP API", cli: "CLI", mcp: "MCP" },
  emptyAnswer: "(no answer)",
  mentionToAnswer: (mention) =>
    `This bot cannot read ordinary messages here: mention ${mention} in your answer, or reply to this message.`,
};

const de: Messages = {
  locale: "de",
  other: "Sonstiges…",
  skip: "Überspringen",
  skipWords: ["überspringen", "/überspringen", "skip", "/skip"],
  otherPrefixes: ["sonstiges:", "other:"],
  yourAnswer: "Deine Antwort",
  send: "Senden",
  recommended: "empfohlen",
  expiresAt: (time) => `Läuft ab um ${time}.`,
  questionOf: (index, total) => `Frage ${index} von ${total}`,
  howToReplySingle: "Antworte mit der Nummer oder Bezeichnung einer Option oder mit einer eigenen Antwort.",
  howToReplyMulti:
    "Antworte mit einer oder mehreren Nummern oder Bezeichnungen, durch Kommas getrennt, oder mit einer eigenen Antwort.",
  howToReplySeveral: (example) => `Antworte mit einer Zeile pro Frage, z. B. ${example}`,
  howToSkip: "Antworte „überspringen“, um zu überspringen.",
  otherHint: "Alles andere gilt als eigene Antwort („sonstiges: …“ erzwingt das).",
  replyHint: "Antworte auf diese Nachricht, um zu antworten.",
  recorded: (summary) => `Erfasst: ${summary}`,
  recordedPartial: (summary, missing) => `Erfasst: ${summary}.\nNoch offen:\n${missing}`,
  selected: (values) => `Ausgewählt: ${values}`,
  nothingSelected: "Nichts ausgewählt.",
  stillNeeded: (headers) => `Noch offen: ${headers}.`,
  back: "‹ Zurück",
  next: "Weiter ›",
  skipped: "Übersprungen.",
  typeYourAnswer: "Schreib deine Antwort als Antwort auf diese Nachricht.",
  refusedForOther: (who) => `Diese Frage ist für ${who}.`,
  refusedForSomeoneElse: "Diese Frage ist für jemand anderen.",
  refusedNotAllowed: "Du darfst diese Frage nicht beantworten.",
  refusedNoCreator:
    "Für diese Frage wurde in diesem Chat niemand zum Antworten benannt: sie wird im Web-Panel oder vom Betreiber beantwortet.",
  refusedAnsweredBy: (who) => `Diese Frage wurde bereits von ${who} beantwortet.`,
  refusedAnswered: "Diese Frage wurde bereits beantwortet.",
  refusedExpired: (time) => `Diese Frage ist um ${time} abgelaufen.`,
  refusedSkipped: "Diese Frage wurde übersprungen.",
  refusedCancelled: "Diese Frage wurde abgebrochen.",
  refusedUndeliverable: "Diese Frage konnte nicht zugestellt werden und ist geschlossen.",
  refusedUnknown: "Diese Frage ist nicht mehr bekannt.",
  ambiguous: (list) =>
    `Mehrere Fragen warten:\n${list}\nAntworte auf die Nachricht der Frage, die du meinst.`,
  invalidNumber: (given, max) =>
    `Es gibt keine Option ${given}: wähle eine Nummer von 1 bis ${max}, eine Bezeichnung oder schreib eine eigene Antwort nach „sonstiges:“.`,
  invalidEmpty: "Die Antwort ist leer.",
  invalidUnknownKey: (key, keys) => `„${key}“ ist keine der Fragen (${keys}).`,
  invalidOneLine: (header) => `Gib eine Antwort für ${header}.`,
  invalidOtherEmpty: "Schreib deine eigene Antwort nach „sonstiges:“.",
  invalidSkipAlone: "Um zu überspringen, antworte nur mit „überspringen“.",
  invalidTooManyLines: (lines, open) =>
    open === 0
      ? "Jede Frage hat schon eine Antwort. Um eine zu ändern, beginne die Zeile mit ihrer Nummer, z. B. „1: …“."
      : `${lines} Zeilen ohne Fragennummer, aber nur ${open === 1 ? "eine Frage ist" : `${open} Fragen sind`} offen. Schreib eine Antwort pro Zeile oder beginne eine Zeile mit der Nummer der Frage, z. B. „2: …“.`,
  invalidTooLong: (max) => `Die Antwort ist zu lang: höchstens ${max} Zeichen.`,
  summaryAnswered: "✅",
  summarySkipped: "⏭ Übersprungen",
  summaryExpired: "⌛ Abgelaufen",
  summaryCancelled: "✖ Abgebrochen",
  summaryUndeliverable: "⚠ Nicht zugestellt",
  summaryBy: (who) => ` — ${who}`,
  summarySkippedBy: (headers, who) => `⏭ ${headers} — übersprungen${who ? ` von ${who}` : ""}`,
  summaryExpiredOf: (headers) => `⌛ ${headers} — abgelaufen`,
  summaryCancelledOf: (headers) => `✖ ${headers} — abgebrochen`,
  summaryUndeliverableOf: (headers) => `⚠ ${headers} — nicht zugestellt`,
  forWhom: (name) => `Für ${name}`,
  via: (name, surface) => `${name} über ${surface}`,
  anOperator: "eine Bedienperson",
  someone: "jemand",
  surfaces: { web: "das Web-Panel", http: "HTTP-API", cli: "CLI", mcp: "MCP" },
  emptyAnswer: "(keine Antwort)",
  mentionToAnswer: (mention) =>
    `Dieser Bot kann hier keine gewöhnlichen Nachrichten lesen: erwähne ${mention} in deiner Antwort oder antworte direkt auf diese Nachricht.`,
};

const catalogues: Record<Locale, Messages> = { en, de };

/**
 * Picks the catalogue locale for a platform locale (`de`, `de-AT`, `de_CH` → German), falling back to
 * `fallback` (itself resolved) and then English.
 */
export function pickLocale(requested: string | undefined, fallback?: string): Locale {
  for (const candidate of [requested, fallback]) {
    if (!candidate) continue;
    const language = candidate.trim().toLowerCase().split(/[-_]/)[0];
    if (language === "de" || language === "en") return language;
  }
  return "en";
}

/** The catalogue for a locale (any BCP 47 tag; unknown languages get English). */
export function messagesFor(locale: string | undefined): Messages {
  return catalogues[pickLocale(locale)];
}

/** Formats an epoch-ms deadline for text: `14:05 UTC` (with the date when it is not the same UTC day as `now`). */
export function formatTime(epochMs: number, locale: string, nowMs?: number): string {
  const formats = dateFormats[pickLocale(locale)];
  const time = formats.time.format(epochMs);
  const sameDay = nowMs === undefined || Math.floor(nowMs / 86_400_000) === Math.floor(epochMs / 86_400_000);
  return sameDay ? `${time} UTC` : `${formats.date.format(epochMs)} ${time} UTC`;
}

// Building an Intl.DateTimeFormat costs far more than using one: build each once.
const dateFormats: Record<Locale, { time: Intl.DateTimeFormat; date: Intl.DateTimeFormat }> = {
  en: {
    time: new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" }),
    date: new Intl.DateTimeFormat("en-CA", {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      timeZone: "UTC",
    }),
  },
  de: {
    time: new Intl.DateTimeFormat("de-DE", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" }),
    date: new Intl.DateTimeFormat("de-DE", {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      timeZone: "UTC",
    }),
  },
};
