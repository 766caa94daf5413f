/** The panel's keyboard: arrow keys move between the options of a question. */
export const ARROWS: Record<string, number> = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };

/** The chosen option of a group, else its first. */
export function firstOption(group: HTMLElement | null): HTMLButtonElement | null {
  return (
    group?.querySelector<HTMLButtonElement>('[aria-checked="true"]') ??
    group?.querySelector<HTMLButtonElement>("button") ??
    null
  );
}

/** Arrow keys on an option move the focus to the next or previous option of its question. */
export function moveFocus(event: KeyboardEvent, target: HTMLElement | null): boolean {
  const step = ARROWS[event.key];
  const group = target?.closest(".options");
  if (step === undefined || !group || !target) return false;
  const buttons = [...group.querySelectorAll<HTMLButtonElement>("button")];
  const next =
    buttons[(buttons.indexOf(target as HTMLButtonElement) + step + buttons.length) % buttons.length];
  event.preventDefault();
  next?.focus();
  return true;
}
