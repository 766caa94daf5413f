import type { Answers, PromptQuestion, PublicQuestion } from "@ask-user/core";
import { useEffect, useRef, useState } from "preact/hooks";
import {
  answersOf,
  type Draft,
  hasValue,
  nextOpenStep,
  pick,
  toggle,
  toggleOther,
  withChoice,
} from "./draft.ts";
import type { PanelStrings } from "./i18n.ts";
import { ARROWS, firstOption, moveFocus } from "./keys.ts";
import { PanelHeader } from "./panel-header.tsx";
import { QuestionStep } from "./question-step.tsx";
import { formatClock, formatCountdown } from "./time.ts";

interface PanelProps {
  strings: PanelStrings;
  question: PublicQuestion;
  draft: Draft;
  serverNow: number;
  /** Pending prompts after this one. */
  queued: number;
  /** Phone width: every question of the prompt at once, stacked as cards, instead of the stepper. */
  stacked: boolean;
  busy: boolean;
  error: string | undefined;
  onDraft(draft: Draft): void;
  onSubmit(answers: Answers): void;
  onSkip(): void;
  onCollapse(): void;
}

/**
 * The docked panel for the oldest pending prompt: one question at a time with a stepper (or, at phone
 * width, all of them stacked), Other…, Skip, a live countdown and the keyboard: number keys choose,
 * arrows move, Enter confirms, Esc collapses.
 */
export function Panel(props: PanelProps) {
  const { strings, question, draft, busy, stacked } = props;
  const { core, web } = strings;
  const questions = question.prompt.questions;
  const total = questions.length;
  const step = Math.min(draft.step, total - 1);
  const current = questions[step] as PromptQuestion;
  const currentChoice = draft.choices[step] ?? { selected: [], otherOpen: false, otherText: "" };
  const optionsRef = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const [missingShown, setMissingShown] = useState(false);

  // Who uses the keyboard: only they get the focus moved for them. A prompt that just appeared gets no
  // focus ring on its first option (it would read as preselected); the first arrow key puts it there.
  const keyboardUser = useRef(false);
  useEffect(() => {
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

  // A new step (or a new prompt) of someone on the keyboard puts the focus on its chosen option, else
  // its first, unless they are somewhere else on the page.
  useEffect(() => {
    if (stacked || !keyboardUser.current) return;
    const active = document.activeElement;
    if (active && active !== document.body && !panelRef.current?.contains(active)) return;
    if (!(active instanceof HTMLInputElement)) firstOption(optionsRef.current)?.focus();
  }, [question.id, step, stacked]);

  /** The question at `index` got its value: go on (stepper), or send once every question has one. */
  function confirm(next: Draft, index: number) {
    if (!hasValue(next.choices[index])) {
      props.onDraft(next);
      return;
    }
    if (stacked) {
      const answers = total === 1 ? answersOf(questions, next) : undefined;
      if (answers) props.onSubmit(answers);
      else props.onDraft(next);
      return;
    }
    // Next goes to the next question; the last one sends once every question has a value, else it
    // returns to the first question still without one.
    const answers = answersOf(questions, next);
    if (index === total - 1 && answers) {
      props.onDraft(next);
      props.onSubmit(answers);
      return;
    }
    const following = index < total - 1 ? index + 1 : (nextOpenStep(next, index) ?? index);
    props.onDraft({ ...next, step: following });
  }

  function chooseOption(index: number, optionIndex: number) {
    const item = questions[index];
    const choice = draft.choices[index];
    if (!item || !choice || busy) return;
    if (item.multiSelect) props.onDraft(withChoice(draft, index, toggle(choice, optionIndex)));
    else confirm(withChoice(draft, index, pick(choice, optionIndex)), index);
  }

  function chooseOther(index: number) {
    const item = questions[index];
    const choice = draft.choices[index];
    if (!item || !choice || busy) return;
    props.onDraft(withChoice(draft, index, toggleOther(choice, item.multiSelect)));
  }

  /** Sends every answer; with some missing, says which and takes the focus to the first of them. */
  function sendAll() {
    if (busy) return;
    const answers = answersOf(questions, draft);
    if (answers) {
      props.onSubmit(answers);
      return;
    }
    setMissingShown(true);
    const index = draft.choices.findIndex((choice) => !hasValue(choice));
    const group = panelRef.current?.querySelectorAll<HTMLElement>(".options")[index];
    group?.scrollIntoView({ block: "center" });
    firstOption(group ?? null)?.focus();
  }

  // Keys anywhere on the page while the panel is open (typing in a text field only knows Esc).
  const keys = useRef<(event: KeyboardEvent) => void>(() => undefined);
  keys.current = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "Escape") {
      event.preventDefault();
      props.onCollapse();
      return;
    }
    const target = event.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
    if (moveFocus(event, target)) return;
    // Nothing focused yet: the first arrow key goes to the options (arrows elsewhere keep scrolling).
    if (ARROWS[event.key] !== undefined && (!target || target === document.body)) {
      const options = stacked ? panelRef.current?.querySelector<HTMLElement>(".options") : optionsRef.current;
      const option = firstOption(options ?? null);
      if (option) {
        event.preventDefault();
        option.focus();
        return;
      }
    }
    const index = stacked
      ? Math.max(
          0,
          draft.choices.findIndex((c) => !hasValue(c)),
        )
      : step;
    const item = questions[index];
    if (!item) return;
    if (/^[1-9]$/.test(event.key)) {
      const number = Number(event.key);
      if (number <= item.options.length) chooseOption(index, number - 1);
      else if (number === item.options.length + 1) chooseOther(index);
      else return;
      event.preventDefault();
      return;
    }
    if (event.key === "Enter" && target?.tagName !== "BUTTON") {
      event.preventDefault();
      if (stacked) sendAll();
      else confirm(draft, step);
    }
  };
  useEffect(() => {
    const listener = (event: KeyboardEvent) => keys.current(event);
    document.addEventListener("keydown", listener);
    return () => document.removeEventListener("keydown", listener);
  }, []);

  const left = formatCountdown(question.expiresAt - props.serverNow);
  // The deadline on the reader's own clock (the server's time corrected for this browser's offset).
  const deadline = question.expiresAt - (props.serverNow - Date.now());
  const until = formatClock(deadline, strings.locale, Date.now());
  const missing = questions.filter((_, index) => !hasValue(draft.choices[index])).map((q) => q.header);
  const showPrimary = stacked
    ? total > 1 || questions[0]?.multiSelect || currentChoice.otherOpen
    : current.multiSelect || currentChoice.otherOpen || hasValue(currentChoice);
  const primaryLabel = stacked || step === total - 1 ? (stacked ? web.send : web.confirm) : web.next;
  // "Send answers" stays pressable and says what is missing; the stepper's Confirm/Next wait for a value.
  const primaryEnabled = stacked || hasValue(currentChoice);
  const missingId = `missing-${question.id}`;

  return (
    <section class={`panel${stacked ? " panel--stacked" : ""}`} aria-label={web.waiting(1)} ref={panelRef}>
      <PanelHeader
        strings={strings}
        questions={questions}
        draft={draft}
        step={step}
        stacked={stacked}
        left={left}
        deadline={deadline}
        until={until}
        onCollapse={props.onCollapse}
      />
      <div class="panel-body">
        {stacked ? (
          questions.map((item, index) => (
            <div class="stacked-card" key={item.id}>
              <span class="chip">{item.header}</span>
              <QuestionStep
                strings={strings}
                question={item}
                choice={draft.choices[index] ?? currentChoice}
                domId={`q-${question.id}-${index}`}
                busy={busy}
                onOption={(option) => chooseOption(index, option)}
                onOther={() => chooseOther(index)}
                onOtherText={(text) =>
                  props.onDraft(
                    withChoice(draft, index, { ...(draft.choices[index] ?? currentChoice), otherText: text }),
                  )
                }
                onOtherEnter={() => (total === 1 ? confirm(draft, index) : sendAll())}
              />
            </div>
          ))
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
      <div class="panel-actions">
        <button type="button" class="button button--quiet" disabled={busy} onClick={props.onSkip}>
          {core.skip}
        </button>
        {props.queued > 0 ? <span class="queued">{web.queued(props.queued)}</span> : <span class="spacer" />}
        {!stacked && step > 0 ? (
          <button
            type="button"
            class="button"
            disabled={busy}
            onClick={() => props.onDraft({ ...draft, step: step - 1 })}
          >
            {web.back}
          </button>
        ) : null}
        {showPrimary ? (
          <button
            type="button"
            class="button button--primary"
            disabled={busy || !primaryEnabled}
            aria-describedby={stacked && missing.length > 0 ? missingId : undefined}
            onClick={() => (stacked ? sendAll() : confirm(draft, step))}
          >
            {primaryLabel}
          </button>
        ) : null}
      </div>
      {stacked && showPrimary && missing.length > 0 ? (
        <p
          id={missingId}
          class={`panel-missing${missingShown ? " panel-missing--shown" : ""}`}
          role={missingShown ? "alert" : undefined}
        >
          {web.missing(missing.join(", "))}
        </p>
      ) : null}
    </section>
  );
}
