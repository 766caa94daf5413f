import type { PromptQuestion } from "@ask-user/core";
import { type Draft, hasValue } from "./draft.ts";
import type { PanelStrings } from "./i18n.ts";

interface PanelHeaderProps {
  strings: PanelStrings;
  questions: readonly PromptQuestion[];
  draft: Draft;
  /** The stepper's question. */
  step: number;
  /** The review of every answer is open (after the last question). */
  reviewing: boolean;
  /** The countdown, formatted. */
  left: string;
  /** The deadline on the reader's clock (epoch ms) and as a clock time. */
  deadline: number;
  until: string;
  onCollapse(): void;
}

/** The panel's top row: the question's chip, the stepper, the countdown, the deadline, collapse. */
export function PanelHeader(props: PanelHeaderProps) {
  const { strings, questions, draft, step, reviewing, left, deadline, until } = props;
  const { core, web } = strings;
  const total = questions.length;
  const current = questions[step];
  return (
    <div class="panel-top">
      {reviewing ? null : <span class="chip">{current?.header}</span>}
      {total > 1 ? (
        <span class="stepper">
          {reviewing ? null : <span class="stepper-text">{core.questionOf(step + 1, total)}</span>}
          <span class="stepper-dots" aria-hidden="true">
            {questions.map((q, i) => (
              <span
                key={q.id}
                class={`dot${i === step && !reviewing ? " dot--current" : hasValue(draft.choices[i]) ? " dot--done" : ""}`}
              />
            ))}
          </span>
        </span>
      ) : null}
      <span class="countdown" role="timer" aria-label={web.expiresIn}>
        {web.timeLeft(left)}
      </span>
      <time class="deadline" dateTime={new Date(deadline).toISOString()}>
        {web.until(until)}
      </time>
      <button
        type="button"
        class="icon-button"
        aria-expanded="true"
        aria-label={web.collapse}
        title={`${web.collapse} (Esc)`}
        onClick={props.onCollapse}
      >
        ▾
      </button>
    </div>
  );
}
