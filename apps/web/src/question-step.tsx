import { isRecommended, type PromptQuestion, stripRecommended } from "@ask-user/core";
import type { ComponentChildren, Ref } from "preact";
import { useEffect, useRef } from "preact/hooks";
import type { Choice } from "./draft.ts";
import type { PanelStrings } from "./i18n.ts";

interface QuestionStepProps {
  strings: PanelStrings;
  question: PromptQuestion;
  choice: Choice;
  /** Unique per rendered question, for ids. */
  domId: string;
  busy: boolean;
  optionsRef?: Ref<HTMLDivElement>;
  onOption(index: number): void;
  onOther(): void;
  onOtherText(text: string): void;
  /** Enter in the Other… field. */
  onOtherEnter(): void;
}

/**
 * One question: its options as large buttons (radio semantics for single-select, checkbox semantics for
 * multi-select) with the number key that picks each, descriptions, the recommended mark, and Other….
 */
export function QuestionStep(props: QuestionStepProps) {
  const { strings, question, choice, domId, busy } = props;
  const multi = question.multiSelect;
  const titleId = `${domId}-title`;
  const otherId = `${domId}-other`;
  const count = question.options.length;
  // Radio groups have one tab stop (the chosen option, else the first); arrows move within (the
  // panel's key handler).
  const tabStop = multi ? -1 : choice.otherOpen ? count : (choice.selected[0] ?? 0);

  // Opening Other… moves the focus into its text field.
  const wasOpen = useRef(choice.otherOpen);
  useEffect(() => {
    if (choice.otherOpen && !wasOpen.current) document.getElementById(otherId)?.focus();
    wasOpen.current = choice.otherOpen;
  }, [choice.otherOpen, otherId]);

  return (
    <div class="question">
      <h2 class="question-text" id={titleId}>
        {question.question}
      </h2>
      <p class="question-hint">{multi ? strings.web.chooseSeveral : strings.web.chooseOne}</p>
      <OptionGroup multi={multi} titleId={titleId} optionsRef={props.optionsRef}>
        {question.options.map((option, index) => {
          const recommended = isRecommended(option.label);
          return (
            <OptionButton
              key={option.label}
              multi={multi}
              checked={choice.selected.includes(index)}
              tabbable={multi || index === tabStop}
              busy={busy}
              number={index + 1}
              onClick={() => props.onOption(index)}
            >
              <span class="option-label">
                {stripRecommended(option.label)}
                {recommended ? <span class="badge">★ {strings.core.recommended}</span> : null}
              </span>
              {option.description ? <span class="option-desc">{option.description}</span> : null}
            </OptionButton>
          );
        })}
        <OptionButton
          multi={multi}
          checked={choice.otherOpen}
          tabbable={multi || tabStop === count}
          busy={busy}
          number={count + 1}
          controls={choice.otherOpen ? otherId : undefined}
          onClick={props.onOther}
        >
          <span class="option-label">{strings.core.other}</span>
        </OptionButton>
      </OptionGroup>
      {choice.otherOpen ? (
        <div class="other-field">
          <label for={otherId}>{strings.core.yourAnswer}</label>
          <input
            id={otherId}
            type="text"
            value={choice.otherText}
            maxLength={2000}
            autoComplete="off"
            disabled={busy}
            onInput={(event) => props.onOtherText((event.currentTarget as HTMLInputElement).value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                props.onOtherEnter();
              }
            }}
          />
        </div>
      ) : null}
    </div>
  );
}

interface OptionGroupProps {
  multi: boolean;
  titleId: string;
  optionsRef: Ref<HTMLDivElement> | undefined;
  children: ComponentChildren;
}

/** The options: a radio group (single-select) or a group of checkboxes (multi-select). */
function OptionGroup({ multi, titleId, optionsRef, children }: OptionGroupProps) {
  return multi ? (
    // biome-ignore lint/a11y/useSemanticElements: the same flex container as the radio group; a fieldset would need a legend duplicating the heading
    <div class="options" role="group" aria-labelledby={titleId} ref={optionsRef ?? null}>
      {children}
    </div>
  ) : (
    <div class="options" role="radiogroup" aria-labelledby={titleId} ref={optionsRef ?? null}>
      {children}
    </div>
  );
}

interface OptionButtonProps {
  multi: boolean;
  checked: boolean;
  tabbable: boolean;
  busy: boolean;
  /** The number key that picks it (shown on the button). */
  number: number;
  controls?: string | undefined;
  onClick(): void;
  children: ComponentChildren;
}

/** One large option button: a radio (single-select) or a checkbox (multi-select) to assistive tech. */
function OptionButton(props: OptionButtonProps) {
  const content = (
    <>
      <span class="option-key" aria-hidden="true">
        {props.number}
      </span>
      <span class="option-body">{props.children}</span>
      <span class="option-mark" aria-hidden="true" />
    </>
  );
  const common = {
    type: "button" as const,
    class: `option${props.checked ? " option--checked" : ""}`,
    tabIndex: props.tabbable ? 0 : -1,
    disabled: props.busy,
    "data-option": props.number,
    "aria-controls": props.controls,
    onClick: props.onClick,
  };
  // Buttons, not native inputs: choosing a single-select option answers at once, and native radios
  // would choose (so answer) on the first arrow key. They carry radio/checkbox semantics instead.
  return props.multi ? (
    // biome-ignore lint/a11y/useSemanticElements: see above
    <button role="checkbox" aria-checked={props.checked} {...common}>
      {content}
    </button>
  ) : (
    // biome-ignore lint/a11y/useSemanticElements: see above
    <button role="radio" aria-checked={props.checked} {...common}>
      {content}
    </button>
  );
}
