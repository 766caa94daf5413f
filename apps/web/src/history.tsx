import type { PublicQuestion } from "@ask-user/core";
import type { PanelStrings } from "./i18n.ts";
import { isOpen } from "./questions.ts";
import { statusLine } from "./summary.ts";
import { formatClock } from "./time.ts";

interface HistoryProps {
  strings: PanelStrings;
  questions: PublicQuestion[];
  serverNow: number;
  /**
   * The question the panel shows in full on a phone: its card keeps only its time and status line, so
   * the question is not shown twice on a small screen.
   */
  inPanel?: string | undefined;
}

/** Every question as a compact card, newest last; resolved cards stay with their answer summary. */
export function History({ strings, questions, serverNow, inPanel }: HistoryProps) {
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
  return (
    <ol class="history" aria-label={web.history}>
      {questions.map((question) => (
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

function stateOf(question: PublicQuestion, serverNow: number): string {
  if (question.status === "pending") return isOpen(question, serverNow) ? "pending" : "expired";
  return question.status;
}

function Card({
  strings,
  question,
  serverNow,
  compact,
}: {
  strings: PanelStrings;
  question: PublicQuestion;
  serverNow: number;
  compact: boolean;
}) {
  const state = stateOf(question, serverNow);
  const answers = question.status === "answered" ? (question.answers ?? {}) : undefined;
  const created = formatClock(question.createdAt - (serverNow - Date.now()), strings.locale, Date.now());
  const target = question.target ? `${question.target.channel}:${question.target.conversation}` : undefined;
  return (
    <li class={`card card--${state}`} data-question-id={question.id} data-status={state}>
      <p class="card-meta">
        <time>{created}</time>
        {target ? <span> · {target}</span> : null}
      </p>
      {compact ? (
        <p class="card-question">{question.prompt.questions.map((item) => item.header).join(" · ")}</p>
      ) : null}
      {(compact ? [] : question.prompt.questions).map((item) => (
        <div class="card-row" key={item.id}>
          <span class="chip">{item.header}</span>
          <div class="card-text">
            <p class="card-question">{item.question}</p>
            {answers ? (
              <p class="card-answer">
                <span aria-hidden="true">→ </span>
                {(answers[item.id] ?? []).join(", ") || strings.core.emptyAnswer}
              </p>
            ) : null}
          </div>
        </div>
      ))}
      <p class="card-status">{statusLine(strings, question, serverNow)}</p>
    </li>
  );
}
