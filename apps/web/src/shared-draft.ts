import type { PromptQuestion, PublicQuestion } from "@ask-user/core";
import { useRef, useState } from "preact/hooks";
import { errorMessage, type GatewayApi } from "./api.ts";
import { type Choice, choiceOf, type Draft, firstOpenStep, sameChoice, stagedValues } from "./draft.ts";

/**
 * What this page holds for one prompt beyond the shared draft: the step it shows, and the choices that
 * differ from the stored draft for now — one being staged (until the gateway confirms it), or an
 * Other… field being typed in (until it is confirmed).
 */
interface Local {
  step: number;
  fromReview?: boolean;
  /** By question index. */
  pending: Record<number, Choice>;
}

/** What the page does with a staging's answer. */
export interface SharedDraftHandlers {
  /** The question as the gateway now stores it (merged into the page's map by version). */
  onRecord(question: PublicQuestion): void;
  /** A staging was refused (`message`), or the error is cleared (`undefined`). */
  onError(message: string | undefined): void;
  /** 401 or 409: the token went stale, or the question ended elsewhere — reload the list. */
  onStale(): void;
}

/**
 * True when the stored choice says what this page's does: the same values, and the Other… field open
 * alike (an opened field with nothing typed yet stores nothing, and must stay open here).
 */
function stored(item: PromptQuestion, mine: Choice, saved: Choice): boolean {
  const same = stagedValues(item, mine).join("\n") === stagedValues(item, saved).join("\n");
  return same && mine.otherOpen === saved.otherOpen;
}

/** The shown choices: the stored draft, with this page's own choices not yet stored over it. */
function view(question: PublicQuestion, local: Local | undefined): Draft {
  const choices = question.prompt.questions.map(
    (q, index) => local?.pending[index] ?? choiceOf(q, question.draft?.[q.id]),
  );
  // Until the reader moves, the step follows the draft: the first question still without a value.
  if (!local) return { step: firstOpenStep(choices), choices };
  return local.fromReview ? { step: local.step, choices, fromReview: true } : { step: local.step, choices };
}

/**
 * The panel's draft of the current prompt as one shared draft (SPEC §6): it is shown from
 * `record.draft` — so a reload, another tab, the CLI and the chats' taps all show here, live — and each
 * choice made here is staged into it (`PUT /v1/questions/:id/draft`): one request per choice, and only
 * the answer to the latest request of a question counts. A question whose Other… text is being typed,
 * or whose choice is on its way, keeps this page's version until the gateway has it.
 */
export function useSharedDraft(
  api: GatewayApi,
  current: PublicQuestion | undefined,
  handlers: SharedDraftHandlers,
): { draft: Draft | undefined; update(next: Draft, stage?: number): void } {
  const [locals, setLocals] = useState<Record<string, Local>>({});
  /** The latest staging request per `<prompt id>/<question index>`. */
  const latest = useRef(new Map<string, number>());
  const handle = useRef(handlers);
  handle.current = handlers;
  const draft = current ? view(current, locals[current.id]) : undefined;

  /** Forgets this page's choice for a question once the stored draft shows it (or it was refused). */
  function settle(id: string, item: PromptQuestion, index: number, saved: Choice | undefined) {
    setLocals((all) => {
      const local = all[id];
      const mine = local?.pending[index];
      if (!local || !mine || (saved && !stored(item, mine, saved))) return all;
      const pending = { ...local.pending };
      delete pending[index];
      return { ...all, [id]: { ...local, pending } };
    });
  }

  function stage(question: PublicQuestion, index: number, choice: Choice) {
    const item = question.prompt.questions[index];
    if (!item) return;
    const key = `${question.id}/${index}`;
    const request = (latest.current.get(key) ?? 0) + 1;
    latest.current.set(key, request);
    const isLatest = () => latest.current.get(key) === request;
    api.stage(question.id, item.id, stagedValues(item, choice)).then(
      (response) => {
        if (!isLatest()) return; // a later choice of the same question is on its way
        const record = response.body;
        if (response.status === 200 && record) {
          handle.current.onRecord(record);
          settle(question.id, item, index, choiceOf(item, record.draft?.[item.id]));
        } else if (response.status === 401 || response.status === 409) {
          handle.current.onStale();
        } else {
          handle.current.onError(errorMessage(record) ?? `HTTP ${response.status}`);
          settle(question.id, item, index, undefined);
        }
      },
      (error: unknown) => {
        if (isLatest()) handle.current.onError((error as Error).message);
      },
    );
  }

  function update(next: Draft, stageIndex?: number) {
    if (!current || !draft) return;
    const id = current.id;
    const changed: Record<number, Choice> = {};
    next.choices.forEach((choice, index) => {
      const shown = draft.choices[index];
      if (shown && !sameChoice(choice, shown)) changed[index] = choice;
    });
    setLocals((all) => {
      const local: Local = {
        step: next.step,
        pending: { ...all[id]?.pending, ...changed },
      };
      if (next.fromReview) local.fromReview = true;
      return { ...all, [id]: local };
    });
    if (stageIndex === undefined) return;
    // What the stored draft already says goes out only while an earlier choice of it is on its way
    // (which it must overtake): a confirmed preselection sends nothing.
    const choice = next.choices[stageIndex];
    const item = current.prompt.questions[stageIndex];
    if (!choice || !item) return;
    const inFlight = locals[id]?.pending[stageIndex] !== undefined;
    if (!inFlight && stored(item, choice, choiceOf(item, current.draft?.[item.id]))) return;
    handle.current.onError(undefined);
    stage(current, stageIndex, choice);
  }

  return { draft, update };
}
