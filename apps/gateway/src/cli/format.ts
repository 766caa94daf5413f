import {
  formatTime,
  type QuestionRecord,
  renderAnswers,
  renderQuestionLines,
  renderSummary,
} from "@ask-user/core";
import type { PublicQuestion } from "../api.ts";
import { type Paint, paint, paintStatus } from "./color.ts";

/** `14:32` for minutes and seconds, `1:02:03` past an hour. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** Seconds until the question expires (0 once past). */
export function secondsLeft(question: PublicQuestion, now = Date.now()): number {
  return Math.max(0, Math.ceil((question.expiresAt - now) / 1000));
}

/** The first question's header, with a count when there are more: `Deploy`, `Deploy +1`. */
export function headline(question: PublicQuestion): string {
  const [first, ...rest] = question.prompt.questions;
  const header = first?.header ?? question.id;
  return rest.length > 0 ? `${header} +${rest.length}` : header;
}

function quoteForShell(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * `ask-user answer <id> --json '{"deploy_target":["Staging (Recommended)"]}'` with each first option;
 * `command` is how the CLI is run here (`cliCommand`: `pnpm ask-user`, `--url` …).
 */
export function answerHint(question: PublicQuestion, command = "ask-user"): string {
  const example: Record<string, string[]> = {};
  for (const q of question.prompt.questions) example[q.id] = [q.options[0]?.label ?? "…"];
  return `${command} answer ${question.id} --json ${quoteForShell(JSON.stringify(example))}`;
}

/**
 * Where a person can answer: the chat it went to (when it has a target) and the web panel, or — when no
 * chat channel got it — the web panel and the terminal only.
 */
export function whereToAnswer(question: PublicQuestion, panelUrl: string, command = "ask-user"): string {
  const target = targetText(question);
  const hint = answerHint(question, command);
  return target
    ? `Answer it in ${target} or in the web panel at ${panelUrl}/, or run: ${hint}`
    : `No chat channel got it: answer it in the web panel at ${panelUrl}/, or run: ${hint}`;
}

/** `telegram:123456`, or undefined without a target. */
export function targetText(question: PublicQuestion): string | undefined {
  return question.target ? `${question.target.channel}:${question.target.conversation}` : undefined;
}

function summary(question: PublicQuestion): string {
  const record: QuestionRecord = { ...question, tokens: [] };
  return renderSummary(record, { locale: "en" });
}

/** What the last column of `list` shows: time left, the answer, or how it ended. */
function outcome(question: PublicQuestion, now: number): string {
  switch (question.status) {
    case "pending":
      return `${formatDuration(secondsLeft(question, now))} left`;
    case "answered":
      return renderAnswers(question.prompt, question.answers ?? {});
    default:
      return "—";
  }
}

function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
}

function width(text: string): number {
  return Array.from(text).length;
}

/** `list` as a table: id, status, header and question, time left or answer (status in colour with `p`). */
export function formatTable(questions: PublicQuestion[], now = Date.now(), p: Paint = paint(false)): string {
  const head = ["ID", "STATUS", "QUESTION", "LEFT / ANSWER"];
  const rows = questions.map((q) => {
    const first = q.prompt.questions[0];
    const more = q.prompt.questions.length > 1 ? ` (+${q.prompt.questions.length - 1})` : "";
    const text = first ? `${first.header}: ${first.question}` : "";
    return [q.id, q.status, `${clip(text, 56)}${more}`, clip(outcome(q, now), 48)];
  });
  const widths = head.map((_, column) => Math.max(...[head, ...rows].map((row) => width(row[column] ?? ""))));
  const styled = (cell: string, row: number, column: number) =>
    row === 0 ? p.bold(cell) : column === 1 ? paintStatus(p, cell) : column === 0 ? p.cyan(cell) : cell;
  return [head, ...rows]
    .map((row, r) =>
      row
        .map((cell, column) =>
          column === row.length - 1
            ? styled(cell, r, column)
            : styled(cell, r, column) + " ".repeat((widths[column] ?? 0) - width(cell)),
        )
        .join("  "),
    )
    .join("\n");
}

/**
 * One question for a person: status line, where it went, the questions and options, answers or how to
 * answer (in the chat, the web panel at `panelUrl`, or the terminal).
 */
export function formatQuestion(
  question: PublicQuestion,
  options: { panelUrl: string; now?: number; paint?: Paint; command?: string },
): string {
  const now = options.now ?? Date.now();
  const p = options.paint ?? paint(false);
  const lines: string[] = [];
  if (question.status === "pending") {
    const left = formatDuration(secondsLeft(question, now));
    lines.push(
      p.bold(`⏳ Question ${question.id}: ${paintStatus(p, "pending")}, ${left} left`) +
        ` (until ${formatTime(question.expiresAt, "en", now)})`,
    );
  } else {
    const when = question.resolvedAt ? ` at ${formatTime(question.resolvedAt, "en", now)}` : "";
    lines.push(p.bold(`Question ${question.id}: ${paintStatus(p, question.status)}${when}`));
  }
  const where = [
    targetText(question) ? `target ${targetText(question)}` : "no target",
    question.runId ? `run ${question.runId}` : undefined,
    `asked ${formatTime(question.createdAt, "en", now)}`,
  ].filter((part) => part !== undefined);
  lines.push(p.dim(where.join(" · ")), "");
  const several = question.prompt.questions.length > 1;
  question.prompt.questions.forEach((q, index) => {
    if (index > 0) lines.push("");
    lines.push(...renderQuestionLines(q, several ? index + 1 : undefined));
  });
  lines.push("");
  if (question.status === "pending") {
    lines.push(whereToAnswer(question, options.panelUrl, options.command));
  } else {
    lines.push(summary(question));
    if (question.status === "undeliverable" && question.error)
      lines.push(`Delivery failed: ${question.error}`);
  }
  return lines.join("\n");
}
