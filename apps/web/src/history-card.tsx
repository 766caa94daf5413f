import type { PublicQuestion } from "@ask-user/core";
import { useEffect, useState } from "preact/hooks";
import type { PanelStrings } from "./i18n.ts";
import { StatusIcon } from "./status-icon.tsx";
import { statusKind, statusLine } from "./summary.ts";
import { formatClock } from "./time.ts";

interface CardProps {
  strings: PanelStrings;
  question: PublicQuestion;
  serverNow: number;
  /** The panel shows this prompt: the card keeps its headers and status only (no question twice). */
  compact: boolean;
}

/** One question of the history: time, target, id (copyable), the questions, the answers, the status. */
export function Card({ strings, question, serverNow, compact }: CardProps) {
  const kind = statusKind(question, serverNow);
  const answers = question.status === "answered" ? (question.answers ?? {}) : undefined;
  const created = formatClock(question.createdAt - (serverNow - Date.now()), strings.locale, Date.now());
  const target = question.target ? `${question.target.channel}:${question.target.conversation}` : undefined;
  return (
    <li class={`card card--${kind}`} data-question-id={question.id} data-status={kind}>
      <div class="card-meta">
        <time>{created}</time>
        {target ? <span> · {target}</span> : null}
        <CopyId strings={strings} id={question.id} />
      </div>
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
      <p class="card-status">
        <StatusIcon kind={kind} />
        <span>{statusLine(strings, question, serverNow)}</span>
      </p>
    </li>
  );
}

/** The question's id in monospace and a button that copies it (the clipboard API, else a selection). */
function CopyId({ strings, id }: { strings: PanelStrings; id: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2_000);
    return () => clearTimeout(timer);
  }, [copied]);
  async function copy(event: Event) {
    const code = (event.currentTarget as HTMLElement).parentElement?.querySelector("code");
    try {
      await navigator.clipboard.writeText(id);
    } catch {
      // No clipboard API (a page served over plain HTTP to another host): select the id instead.
      if (code) window.getSelection()?.selectAllChildren(code);
      document.execCommand("copy");
    }
    setCopied(true);
  }
  return (
    <span class="card-id">
      <code>{id}</code>
      <button
        type="button"
        class="copy-button"
        aria-label={strings.web.copyId(id)}
        onClick={(event) => void copy(event)}
      >
        {copied ? strings.web.copied : <CopyIcon />}
      </button>
    </span>
  );
}

function CopyIcon() {
  return (
    <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true" focusable="false">
      <path
        d="M9 9h10v12H9zM5 15H4V3h11v1"
        fill="none"
        stroke="currentColor"
        stroke-width="2"
        stroke-linejoin="round"
      />
    </svg>
  );
}
