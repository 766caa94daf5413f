import type { PublicQuestion } from "@ask-user/core";
import type { PanelStrings, StatusKind } from "./i18n.ts";
import { formatClock, formatCountdown } from "./time.ts";

/** How a surface is named to a reader: `telegram` → `Telegram`, `web` → `web panel`. */
export function surfaceName(strings: PanelStrings, surface: string): string {
  return strings.web.surfaces[surface] ?? surface;
}

/** The state the panel shows: a pending question whose deadline passed reads as expired. */
export function statusKind(question: PublicQuestion, serverNow: number): StatusKind {
  if (question.status === "pending") return question.expiresAt > serverNow ? "pending" : "expired";
  return question.status;
}

/**
 * The one-line status of a question in words (the icon beside it is decoration only): `Answered —
 * @alice via Telegram at 14:05`, `Skipped — operator via web panel at 14:06`, `Expired at 14:20`, or,
 * while it is open, `Waiting for an answer · 12:34 left`. Core's chat summaries start with emoji
 * (✅ ⏭ ⌛), which render as empty boxes without an emoji font, so the panel words them itself.
 */
export function statusLine(strings: PanelStrings, question: PublicQuestion, serverNow: number): string {
  const { core, web, locale } = strings;
  const at = (epochMs: number | undefined) =>
    web.at(formatClock((epochMs ?? serverNow) - (serverNow - Date.now()), locale, Date.now()));
  const by = question.resolvedBy
    ? `${core.summaryBy(question.resolvedBy.displayName ?? question.resolvedBy.userId)} ${web.via(
        surfaceName(strings, question.resolvedBy.channel),
      )}`
    : "";
  const kind = statusKind(question, serverNow);
  const word = web.status[kind];
  switch (kind) {
    case "pending":
      return `${web.waitingForAnswer} · ${web.timeLeft(formatCountdown(question.expiresAt - serverNow))}`;
    case "answered":
    case "skipped":
      return `${word}${by} ${at(question.resolvedAt)}`;
    case "expired":
      return `${word} ${at(question.resolvedAt ?? question.expiresAt)}`;
    case "cancelled":
      return `${word} ${at(question.resolvedAt)}`;
    case "undeliverable":
      return `${word} ${at(question.resolvedAt)}${question.error ? ` — ${question.error}` : ""}`;
  }
}
