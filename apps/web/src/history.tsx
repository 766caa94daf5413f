import type { PublicQuestion } from "@ask-user/core";
import { Card } from "./history-card.tsx";
import type { PanelStrings, StatusKind } from "./i18n.ts";
import { statusKind } from "./summary.ts";

/** What the history shows: a status (or all) and a search text. */
export interface HistoryFilter {
  status: StatusKind | "all";
  text: string;
}

const KINDS: StatusKind[] = ["pending", "answered", "skipped", "expired", "cancelled", "undeliverable"];

/** True when the question's id, headers, questions, options, answers or who answered contain `text`. */
export function matches(question: PublicQuestion, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (needle === "") return true;
  const haystack = [
    question.id,
    question.resolvedBy?.displayName,
    question.resolvedBy?.userId,
    question.target?.conversation,
    ...question.prompt.questions.flatMap((item) => [
      item.header,
      item.question,
      ...item.options.map((option) => option.label),
    ]),
    ...Object.values(question.answers ?? {}).flat(),
  ];
  return haystack.some((value) => value?.toLowerCase().includes(needle));
}

interface HistoryProps {
  strings: PanelStrings;
  questions: PublicQuestion[];
  serverNow: number;
  filter: HistoryFilter;
  /**
   * The question the panel shows: its card keeps only its headers and status line, so the question is
   * not shown twice.
   */
  inPanel?: string | undefined;
}

/** Every question as a compact card, newest last, filtered by status and text. */
export function History({ strings, questions, serverNow, filter, inPanel }: HistoryProps) {
  const { web } = strings;
  if (questions.length === 0) {
    return (
      <div class="empty">
        <p>{web.empty}</p>
        <p>
          {web.emptyHint} <code>pnpm ask examples/deploy-target.json</code>
        </p>
      </div>
    );
  }
  const shown = questions.filter(
    (question) =>
      (filter.status === "all" || statusKind(question, serverNow) === filter.status) &&
      matches(question, filter.text),
  );
  if (shown.length === 0) return <p class="empty">{web.noMatch}</p>;
  return (
    <ol class="history" aria-label={web.history}>
      {shown.map((question) => (
        <Card
          key={question.id}
          strings={strings}
          question={question}
          serverNow={serverNow}
          compact={question.id === inPanel}
        />
      ))}
    </ol>
  );
}

interface HistoryToolbarProps {
  strings: PanelStrings;
  questions: PublicQuestion[];
  serverNow: number;
  filter: HistoryFilter;
  onFilter(filter: HistoryFilter): void;
}

/** Above the history: a status filter (with counts) and a search field. */
export function HistoryToolbar({ strings, questions, serverNow, filter, onFilter }: HistoryToolbarProps) {
  const { web } = strings;
  const counts = new Map<StatusKind, number>();
  for (const question of questions) {
    const kind = statusKind(question, serverNow);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return (
    <search class="toolbar">
      <label class="toolbar-field">
        <span>{web.filter}</span>
        <select
          value={filter.status}
          onChange={(event) =>
            onFilter({
              ...filter,
              status: (event.currentTarget as HTMLSelectElement).value as HistoryFilter["status"],
            })
          }
        >
          <option value="all">
            {web.filterAll} ({questions.length})
          </option>
          {KINDS.filter((kind) => counts.has(kind) || kind === filter.status).map((kind) => (
            <option key={kind} value={kind}>
              {web.status[kind]} ({counts.get(kind) ?? 0})
            </option>
          ))}
        </select>
      </label>
      <input
        type="search"
        class="toolbar-search"
        aria-label={web.search}
        placeholder={web.searchPlaceholder}
        value={filter.text}
        autoComplete="off"
        onInput={(event) => onFilter({ ...filter, text: (event.currentTarget as HTMLInputElement).value })}
      />
    </search>
  );
}
