import type { Answers, PromptQuestion, PublicQuestion } from "@ask-user/core";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import {
  answersOf,
  type Draft,
  hasValue,
  pick,
  stepAfter,
  toggle,
  toggleOther,
  withChoice,
} from "./draft.ts";
import type { PanelStrings } from "./i18n.ts";
import { ARROWS, firstOption, moveFocus } from "./keys.ts";
import { PanelHeader } from "./panel-header.tsx";
import { QuestionStep } from "./question-step.tsx";
import { Review } from "./review.tsx";
import { SkipConfirm } from "./skip-confirm.tsx";
import { formatClock, formatCountdown } from "./time.ts";

interface PanelProps {
  strings: PanelStrings;
  question: PublicQuestion;
  draft: Draft;
  serverNow: number;
  /** Pending prompts after this one. */
  queued: number;
  busy: boolean;
  error: string | undefined;
  /**
   * The panel's draft changed; `stage`: the question whose choice was just made, to be staged in the
   * shared draft (typing in Other… stages nothing until it is confirmed).
   */
  onDraft(draft: Draft, stage?: number): void;
  onSubmit(answers: Answers): void;
  onSkip(): void;
  onCollapse(): void;
}

/**
 * The docked panel for a pending prompt: one question a screen with a stepper (desktop and phone), a
 * review of every answer before the last Send, Other…, Skip (asking first while answers are staged), a
 * live countdown and the keyboard: number keys choose, Space toggles, arrows move, Enter confirms the
 * step, Esc collapses.
 */
export function Panel(props: PanelProps) {
  const { strings, question, draft, busy } = props;
  const { core, web } = strings;
  const questions = question.prompt.questions;
  const total = questions.length;
  // The review step exists for prompts of two or more questions; a single question sends at once.
  const reviewing = total > 1 && draft.step >= total;
  const step = Math.min(draft.step, total - 1);
  const current = questions[step] as PromptQuestion;
  const currentChoice = draft.choices[step] ?? { selected: [], otherOpen: false, otherText: "" };
  const optionsRef = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const [confirmingSkip, setConfirmingSkip] = useState(false);
  const staged = questions.filter((_, index) => hasValue(draft.choices[index])).map((q) => q.header);

  // Who uses the keyboard: only they get the focus moved for them. A prompt that just appeared gets no
  // focus ring on its first option (it would read as preselected); the first arrow key puts it there.
  const keyboardUser = useRef(false);
  useLayoutEffect(() => {
    const onKey = () => {
      keyboardUser.current = true;
    };
    const onPointer = () => {
      keyboardUser.current = false;
    };
    document.addEventListener("keydown", onKey, true);
    document.addEventListener("pointerdown", onPointer, true);
    return () => {
      document.removeEventListener("keydown", onKey, true);
      document.removeEventListener("pointerdown", onPointer, true);
    };
  }, []);

  // A new step (or a new prompt) of someone on the keyboard puts the focus on its chosen option (on the
  // review: its Send button), unless they are somewhere else on the page.
  useEffect(() => {
    if (!keyboardUser.current || confirmingSkip) return;
    const active = document.activeElement;
    if (active && active !== document.body && !panelRef.current?.contains(active)) return;
    if (reviewing) panelRef.current?.querySelector<HTMLElement>(".button--primary")?.focus();
    else if (!(active instanceof HTMLInputElement)) firstOption(optionsRef.current)?.focus();
  }, [question.id, step, reviewing, confirmingSkip]);

  /** The question at `index` got its value: go on, to the review, or (one question) send. */
  function confirm(next: Draft, index: number) {
    if (!hasValue(next.choices[index])) {
      props.onDraft(next);
      return;
    }
    const answers = total === 1 ? answersOf(questions, next) : undefined;
    if (answers) {
      props.onDraft(next);
      props.onSubmit(answers);
      return;
    }
    props.onDraft({ ...next, step: stepAfter(next, index, total), fromReview: false }, index);
  }

  function send() {
    const answers = answersOf(questions, draft);
    if (answers && !busy) props.onSubmit(answers);
  }

  function chooseOption(index: number, optionIndex: number) {
    const item = questions[index];
    const choice = draft.choices[index];
    if (!item || !choice || busy) return;
    if (item.multiSelect) props.onDraft(withChoice(draft, index, toggle(choice, optionIndex)), index);
    else confirm(withChoice(draft, index, pick(choice, optionIndex)), index);
  }

  function chooseOther(index: number) {
    const item = questions[index];
    const choice = draft.choices[index];
    if (!item || !choice || busy) return;
    props.onDraft(withChoice(draft, index, toggleOther(choice, item.multiSelect)), index);
  }

  /** Skip: at once with nothing chosen; with answers staged, ask first. */
  function skip() {
    if (staged.length > 0) setConfirmingSkip(true);
    else props.onSkip();
  }

  // Keys anywhere on the page while the panel is open (typing in a text field only knows Esc). The
  // listener is attached before the prompt is painted, so no key pressed the moment it shows is lost.
  const keys = useRef<(event: KeyboardEvent) => void>(() => undefined);
  keys.current = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target instanceof HTMLElement ? event.target : null;
    const typing =
      target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT");
    // Fields outside the panel (the history's search) keep every key, Esc included.
    if (typing && !panelRef.current?.contains(target)) return;
    if (event.key === "Escape") {
      event.preventDefault();
      if (confirmingSkip) setConfirmingSkip(false);
      else props.onCollapse();
      return;
    }
    if (typing || confirmingSkip) return;
    if (event.key === "Enter" && target?.tagName === "BUTTON" && !target.closest(".options")) return;
    if (reviewing) {
      if (event.key === "Enter") {
        event.preventDefault();
        send();
      }
      return;
    }
    if (moveFocus(event, target)) return;
    // Nothing focused yet: the first arrow key goes to the options (arrows elsewhere keep scrolling).
    if (ARROWS[event.key] !== undefined && (!target || target === document.body)) {
      const option = firstOption(optionsRef.current);
      if (option) {
        event.preventDefault();
        option.focus();
        return;
      }
    }
    if (/^[1-9]$/.test(event.key)) {
      const number = Number(event.key);
      if (number <= current.options.length) chooseOption(step, number - 1);
      else if (number === current.options.length + 1) chooseOther(step);
      else return;
      event.preventDefault();
      return;
    }
    if (event.key !== "Enter") return;
    // Enter confirms the step everywhere: on a single-select option it chooses that option (and goes
    // on); on a multi-select option it does not toggle it (Space does).
    event.preventDefault();
    const option = Number(target?.closest(".options") ? target.dataset.option : Number.NaN);
    if (!current.multiSelect && option >= 1) {
      if (option <= current.options.length) chooseOption(step, option - 1);
      else chooseOther(step);
      return;
    }
    confirm(draft, step);
  };
  useLayoutEffect(() => {
    const listener = (event: KeyboardEvent) => keys.current(event);
    document.addEventListener("keydown", listener);
    return () => document.removeEventListener("keydown", listener);
  }, []);

  const left = formatCountdown(question.expiresAt - props.serverNow);
  // The deadline on the reader's own clock (the server's time corrected for this browser's offset).
  const deadline = question.expiresAt - (props.serverNow - Date.now());
  const until = formatClock(deadline, strings.locale, Date.now());
  const showPrimary = reviewing || current.multiSelect || currentChoice.otherOpen || hasValue(currentChoice);
  const primaryLabel = reviewing ? web.send : step === total - 1 && total === 1 ? web.confirm : web.next;
  const primaryEnabled = reviewing || hasValue(currentChoice);

  return (
    <section class="panel" aria-label={web.waiting(1)} ref={panelRef}>
      <PanelHeader
        strings={strings}
        questions={questions}
        draft={draft}
        step={step}
        reviewing={reviewing}
        left={left}
        deadline={deadline}
        until={until}
        onCollapse={props.onCollapse}
      />
      <div class="panel-body">
        {reviewing ? (
          <Review
            strings={strings}
            questions={questions}
            draft={draft}
            busy={busy}
            onChange={(index) => props.onDraft({ ...draft, step: index, fromReview: true })}
          />
        ) : (
          <QuestionStep
            key={`${question.id}-${step}`}
            strings={strings}
            question={current}
            choice={currentChoice}
            domId={`q-${question.id}-${step}`}
            busy={busy}
            optionsRef={optionsRef}
            onOption={(option) => chooseOption(step, option)}
            onOther={() => chooseOther(step)}
            onOtherText={(text) =>
              props.onDraft(withChoice(draft, step, { ...currentChoice, otherText: text }))
            }
            onOtherEnter={() => confirm(draft, step)}
          />
        )}
      </div>
      {props.error ? (
        <p class="panel-error" role="alert">
          {props.error}
        </p>
      ) : null}
      {confirmingSkip ? (
        <SkipConfirm
          strings={strings}
          total={total}
          staged={staged}
          busy={busy}
          onKeep={() => setConfirmingSkip(false)}
          onSkip={props.onSkip}
        />
      ) : (
        <div class="panel-actions">
          <button type="button" class="button button--quiet" disabled={busy} onClick={skip}>
            {core.skip}
          </button>
          {props.queued > 0 ? (
            <span class="queued">{web.queued(props.queued)}</span>
          ) : (
            <span class="spacer" />
          )}
          {step > 0 || reviewing ? (
            <button
              type="button"
              class="button"
              disabled={busy}
              onClick={() =>
                props.onDraft({ ...draft, step: reviewing ? total - 1 : step - 1, fromReview: false })
              }
            >
              {web.back}
            </button>
          ) : null}
          {showPrimary ? (
            <button
              type="button"
              class="button button--primary"
              disabled={busy || !primaryEnabled}
              onClick={() => (reviewing ? send() : confirm(draft, step))}
            >
              {primaryLabel}
            </button>
          ) : null}
        </div>
      )}
      <p class="panel-hint">{web.keyHint}</p>
    </section>
  );
}
