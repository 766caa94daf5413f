import type { PublicQuestion } from "@ask-user/core";
import type { PanelStrings } from "./i18n.ts";
import { formatClock, formatCountdown } from "./time.ts";

/** How a surface is named to a reader: `telegram` → `Telegram`, `web` → `web panel`. */
export function surfaceName(strings: PanelStrings, surface: string): string {
  return strings.web.surfaces[surface] ?? surface;
}

/**
 * The one-line status of a question, built from core's summary strings: `✅ — @alice via Telegram at
 * 14:05`, `⏭ Skipped — operator via web panel at 14:06`, `⌛ Expired at 14:20`, or, while it is open,
 * `Waiting for an answer · 12:34 left`. A pending question whose deadline passed reads as expired.
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
  switch (question.status) {
    case "pending":
      if (question.expiresAt <= serverNow) return `${core.summaryExpired} ${at(question.expiresAt)}`;
      return `${web.waitingForAnswer} · ${web.timeLeft(formatCountdown(question.expiresAt - serverNow))}`;
    case "answered":
      return `${core.summaryAnswered}${by} ${at(question.resolvedAt)}`;
    case "skipped":
      return `${core.summarySkipped}${by} ${at(question.resolvedAt)}`;
    case "expired":
      return `${core.summaryExpired} ${at(question.resolvedAt ?? question.expiresAt)}`;
    case "cancelled":
      return `${core.summaryCancelled} ${at(question.resolvedAt)}`;
    case "undeliverable":
      return `${core.summaryUndeliverable} ${at(question.resolvedAt)}${question.error ? ` — ${question.error}` : ""}`;
  }
}
