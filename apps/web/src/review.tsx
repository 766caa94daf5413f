import type { PromptQuestion } from "@ask-user/core";
import { stripRecommended } from "@ask-user/core";
import { type Draft, valuesOf } from "./draft.ts";
import type { PanelStrings } from "./i18n.ts";

interface ReviewProps {
  strings: PanelStrings;
  questions: readonly PromptQuestion[];
  draft: Draft;
  busy: boolean;
  /** Goes back to the question at `index` (confirming it returns here). */
  onChange(index: number): void;
}

/** Every answer of the prompt before it is sent, each with a Change button back to its question. */
export function Review({ strings, questions, draft, busy, onChange }: ReviewProps) {
  const { web } = strings;
  return (
    <section class="review" aria-labelledby="review-title">
      <h2 class="question-text" id="review-title">
        {web.review}
      </h2>
      <p class="question-hint">{web.reviewHint}</p>
      <dl class="review-list">
        {questions.map((question, index) => {
          const choice = draft.choices[index];
          const values = choice ? valuesOf(question, choice).map(stripRecommended) : [];
          return (
            <div class="review-row" key={question.id}>
              <dt>
                <span class="chip">{question.header}</span>
                <span class="review-question">{question.question}</span>
              </dt>
              <dd>
                <span class="review-answer">{values.join(", ") || strings.core.emptyAnswer}</span>
                <button
                  type="button"
                  class="button button--small"
                  disabled={busy}
                  aria-label={web.change(question.header)}
                  onClick={() => onChange(index)}
                >
                  {web.changeShort}
                </button>
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}
