import { type Locale, type Messages, messagesFor, pickLocale } from "@ask-user/core";

/** A question's state as the panel shows it (a pending question past its deadline reads as expired). */
export type StatusKind = "pending" | "answered" | "skipped" | "expired" | "cancelled" | "undeliverable";

/** Strings only the web panel shows; everything shared with the chat surfaces comes from core's catalogue. */
export interface WebMessages {
  title: string;
  history: string;
  empty: string;
  emptyHint: string;
  waiting: (count: number) => string;
  queued: (count: number) => string;
  confirm: string;
  back: string;
  next: string;
  send: string;
  collapse: string;
  reopen: string;
  timeLeft: (time: string) => string;
  expiresIn: string;
  /** The deadline as a clock time in the reader's zone, next to the countdown. */
  until: (time: string) => string;
  /** The tab's title while questions wait: `(2) ask-user`. */
  pendingTitle: (count: number) => string;
  review: string;
  reviewHint: string;
  /** The accessible name of a review row's Change button. */
  change: (header: string) => string;
  changeShort: string;
  /** Skip with answers staged: what is skipped, what is lost, and the two ways out. */
  skipTitle: (total: number) => string;
  skipLost: (headers: string, count: number) => string;
  skipAll: (total: number) => string;
  keepAnswering: string;
  /** Status words beside the icons (no emoji font needed). */
  status: Record<StatusKind, string>;
  filter: string;
  filterAll: string;
  search: string;
  searchPlaceholder: string;
  noMatch: string;
  shown: (shown: number, total: number) => string;
  copyId: (id: string) => string;
  copied: string;
  notifyMe: string;
  notifyOn: string;
  notifyBlocked: string;
  /** Notifications on, and pushed by the gateway: they come with the tab closed too. */
  notifyPush: string;
  /** The gateway can't be reached (the installed app opened offline, or the gateway is down). */
  unreachable: string;
  via: (surface: string) => string;
  at: (time: string) => string;
  waitingForAnswer: string;
  live: string;
  connecting: string;
  reconnecting: string;
  token: string;
  tokenNeeded: string;
  tokenWrong: string;
  tokenContinue: string;
  tokenStorage: string;
  chooseOne: string;
  chooseSeveral: string;
  keyHint: string;
  idle: string;
  /** Instead of {@link idle} while the gateway can't be reached: what waits is unknown, not nothing. */
  idleOffline: string;
  collapsedHint: string;
  newQuestion: (header: string) => string;
  closedElsewhere: (summary: string) => string;
  notSent: (reason: string) => string;
  /** A choice that could not be staged in the shared draft. */
  notStaged: (reason: string) => string;
  surfaces: Record<string, string>;
}

const en: WebMessages = {
  title: "ask-user",
  history: "Questions",
  empty: "No questions yet.",
  emptyHint: "Ask one from another terminal:",
  waiting: (count) => (count === 1 ? "1 question waiting" : `${count} questions waiting`),
  queued: (count) => (count === 1 ? "1 more waiting after this one" : `${count} more waiting after this one`),
  confirm: "Confirm",
  back: "Back",
  next: "Next",
  send: "Send answers",
  collapse: "Collapse",
  reopen: "Open",
  timeLeft: (time) => `${time} left`,
  expiresIn: "Time left",
  until: (time) => `until ${time}`,
  pendingTitle: (count) => `(${count}) ask-user`,
  review: "Review your answers",
  reviewHint: "Nothing is sent until you press Send answers.",
  change: (header) => `Change ${header}`,
  changeShort: "Change",
  skipTitle: (total) => (total === 1 ? "Skip this question?" : `Skip all ${total} questions?`),
  skipLost: (headers, count) =>
    `Your ${count === 1 ? "answer" : "answers"} to ${headers} will not be sent; the agent is told you skipped.`,
  skipAll: (total) => (total === 1 ? "Skip it" : `Skip all ${total}`),
  keepAnswering: "Keep answering",
  status: {
    pending: "Waiting",
    answered: "Answered",
    skipped: "Skipped",
    expired: "Expired",
    cancelled: "Cancelled",
    undeliverable: "Not delivered",
  },
  filter: "Show",
  filterAll: "All",
  search: "Search questions",
  searchPlaceholder: "Search text or id",
  noMatch: "No question matches.",
  shown: (shown, total) => `${shown} of ${total}`,
  copyId: (id) => `Copy id ${id}`,
  copied: "Copied",
  notifyMe: "Notify me",
  notifyOn: "Notifications on",
  notifyBlocked: "Notifications blocked",
  notifyPush: "Notifications on, also when this tab is closed",
  unreachable: "Can't reach the gateway",
  via: (surface) => `via ${surface}`,
  at: (time) => `at ${time}`,
  waitingForAnswer: "Waiting for an answer",
  live: "Live",
  connecting: "Connecting…",
  reconnecting: "Reconnecting…",
  token: "Token",
  tokenNeeded: "This gateway is protected by a token. Enter the value of ASK_USER_TOKEN to open the panel.",
  tokenWrong: "The token was refused: it does not match the gateway's ASK_USER_TOKEN.",
  tokenContinue: "Open the panel",
  tokenStorage: "Kept for this browser tab only (session storage).",
  chooseOne: "Choose one",
  chooseSeveral: "Choose one or more",
  keyHint: "Keys: a number chooses · Space toggles · ↑↓ move · Enter confirms · Esc collapses",
  idle: "Nothing is waiting. A new question opens here.",
  idleOffline: "Questions show here again once the gateway answers.",
  collapsedHint: "Open the bar above to answer.",
  newQuestion: (header) => `New question: ${header}`,
  closedElsewhere: (summary) => `Closed: ${summary}`,
  notSent: (reason) => `Not sent: ${reason}`,
  notStaged: (reason) => `Your choice was not saved: ${reason}`,
  surfaces: {
    web: "web panel",
    http: "HTTP API",
    cli: "CLI",
    mcp: "MCP",
    text: "text",
    telegram: "Telegram",
    discord: "Discord",
    slack: "Slack",
  },
};

const de: WebMessages = {
  title: "ask-user",
  history: "Fragen",
  empty: "Noch keine Fragen.",
  emptyHint: "Stelle eine aus einem anderen Terminal:",
  waiting: (count) => (count === 1 ? "1 Frage wartet" : `${count} Fragen warten`),
  queued: (count) => (count === 1 ? "1 weitere wartet danach" : `${count} weitere warten danach`),
  confirm: "Bestätigen",
  back: "Zurück",
  next: "Weiter",
  send: "Antworten senden",
  collapse: "Einklappen",
  reopen: "Öffnen",
  timeLeft: (time) => `noch ${time}`,
  expiresIn: "Verbleibende Zeit",
  until: (time) => `bis ${time}`,
  pendingTitle: (count) => `(${count}) ask-user`,
  review: "Antworten prüfen",
  reviewHint: "Erst „Antworten senden“ schickt sie ab.",
  change: (header) => `${header} ändern`,
  changeShort: "Ändern",
  skipTitle: (total) => (total === 1 ? "Diese Frage überspringen?" : `Alle ${total} Fragen überspringen?`),
  skipLost: (headers, count) =>
    `Deine ${count === 1 ? "Antwort" : "Antworten"} zu ${headers} ${count === 1 ? "wird" : "werden"} nicht gesendet; der Agent erfährt, dass du übersprungen hast.`,
  skipAll: (total) => (total === 1 ? "Überspringen" : `Alle ${total} überspringen`),
  keepAnswering: "Weiter antworten",
  status: {
    pending: "Wartet",
    answered: "Beantwortet",
    skipped: "Übersprungen",
    expired: "Abgelaufen",
    cancelled: "Abgebrochen",
    undeliverable: "Nicht zugestellt",
  },
  filter: "Zeigen",
  filterAll: "Alle",
  search: "Fragen durchsuchen",
  searchPlaceholder: "Text oder ID suchen",
  noMatch: "Keine Frage passt.",
  shown: (shown, total) => `${shown} von ${total}`,
  copyId: (id) => `ID ${id} kopieren`,
  copied: "Kopiert",
  notifyMe: "Benachrichtigen",
  notifyOn: "Benachrichtigungen an",
  notifyBlocked: "Benachrichtigungen blockiert",
  notifyPush: "Benachrichtigungen an, auch wenn dieser Tab geschlossen ist",
  unreachable: "Gateway nicht erreichbar",
  via: (surface) => `über ${surface}`,
  at: (time) => `um ${time}`,
  waitingForAnswer: "Wartet auf eine Antwort",
  live: "Live",
  connecting: "Verbinde…",
  reconnecting: "Verbinde neu…",
  token: "Token",
  tokenNeeded:
    "Dieses Gateway ist durch ein Token geschützt. Gib den Wert von ASK_USER_TOKEN ein, um das Panel zu öffnen.",
  tokenWrong: "Das Token wurde abgelehnt: Es stimmt nicht mit ASK_USER_TOKEN des Gateways überein.",
  tokenContinue: "Panel öffnen",
  tokenStorage: "Wird nur für diesen Browser-Tab gespeichert (Session Storage).",
  chooseOne: "Wähle eine Option",
  chooseSeveral: "Wähle eine oder mehrere",
  keyHint: "Tasten: eine Zahl wählt · Leertaste schaltet um · ↑↓ bewegen · Enter bestätigt · Esc klappt ein",
  idle: "Nichts wartet. Eine neue Frage öffnet sich hier.",
  idleOffline: "Fragen erscheinen hier wieder, sobald das Gateway antwortet.",
  collapsedHint: "Öffne die Leiste oben, um zu antworten.",
  newQuestion: (header) => `Neue Frage: ${header}`,
  closedElsewhere: (summary) => `Geschlossen: ${summary}`,
  notSent: (reason) => `Nicht gesendet: ${reason}`,
  notStaged: (reason) => `Ihre Auswahl wurde nicht gespeichert: ${reason}`,
  surfaces: {
    web: "Web-Panel",
    http: "HTTP-API",
    cli: "CLI",
    mcp: "MCP",
    text: "Text",
    telegram: "Telegram",
    discord: "Discord",
    slack: "Slack",
  },
};

/** Core's catalogue (Other…, Skip, summaries, "Question 1 of 3") plus the panel's own strings. */
export interface PanelStrings {
  locale: Locale;
  core: Messages;
  web: WebMessages;
}

/** The strings for the browser's preferred languages (German when the first known one is German). */
export function stringsFor(languages: readonly string[]): PanelStrings {
  const known = languages.find((tag) => /^(de|en)\b/i.test(tag));
  const locale = pickLocale(known);
  return { locale, core: messagesFor(locale), web: locale === "de" ? de : en };
}
