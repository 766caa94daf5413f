/**
 * Staging from any surface (SPEC §6): one question's values put into the record's shared draft — the
 * draft the chat forms, the text stepper, the web panel and the CLI all fill — without answering. Send
 * (a form's, the panel's, `answer`) turns a complete draft into the answer.
 */

import { type InputIssue, InvalidAskUserInputError } from "../model/errors.ts";
import type { QuestionRecord } from "../model/types.ts";
import { messagesFor } from "../prompt/i18n.ts";
import { checkAnswers } from "../schema/answers.ts";
import type { PromptQuestion } from "../schema/schema.ts";
import type { BrokerContext } from "./context.ts";
import { withValues } from "./form.ts";
import { outcomeOf } from "./outcome.ts";
import { checkAnswerer, OPERATOR_SURFACES, type Refusal } from "./policy.ts";
import type { StageActor, StageRequest, TransitionOutcome } from "./types.ts";

/** One question's values, checked like `answer` checks them, plus: at most one answer of one's own. */
type ValuesCheck = { ok: true; values: string[] } | { ok: false; issues: InputIssue[] };

/** Issue paths as the request names them: `values[1]`, `values`, `question`. */
function located(issues: InputIssue[], questionId: string): InputIssue[] {
  const prefix = `answers.${questionId}`;
  return issues.map((issue) =>
    issue.path.startsWith(prefix) ? { ...issue, path: `values${issue.path.slice(prefix.length)}` } : issue,
  );
}

/**
 * Reads `values` for `question`: nothing (an empty list, or only blank strings) clears it; otherwise
 * the values as `answer` reads them (labels made canonical, `other: …` as typed, near misses of a label
 * refused with "did you mean", one value for a single-select question), with one own answer at most
 * — the draft holds what a form can show: chosen options and one Other… text.
 */
export function checkStageValues(question: PromptQuestion, values: unknown): ValuesCheck {
  const given = typeof values === "string" ? [values] : values;
  if (Array.isArray(given) && given.every((v) => typeof v === "string" && v.trim() === "")) {
    return { ok: true, values: [] };
  }
  const prompt = { questions: [question], timeoutSeconds: 0 };
  const checked = checkAnswers(prompt, { [question.id]: given });
  if (!checked.ok) return { ok: false, issues: located(checked.issues, question.id) };
  const read = checked.answers[question.id] ?? [];
  const labels = new Set(question.options.map((option) => option.label));
  if (read.filter((value) => !labels.has(value)).length > 1) {
    const message = "Give at most one answer of your own (the others must be option labels).";
    return { ok: false, issues: [{ path: "values", message }] };
  }
  return { ok: true, values: read };
}

/** The actor's refusal when it is a chat user who may not answer the record (SPEC §5), else none. */
function refusalOf(ctx: BrokerContext, record: QuestionRecord, actor: StageActor): Refusal | undefined {
  if (OPERATOR_SURFACES.has(actor.channel)) return undefined; // authenticated by the gateway's token
  const target = record.target;
  const direct =
    target !== undefined && ctx.channels.get(target.channel)?.isDirect?.(target.conversation) === true;
  const who = { channel: actor.channel, conversation: actor.conversation ?? "", userId: actor.userId };
  return checkAnswerer(record, who, record.locale, direct);
}

function invalid(message: string, issues: InputIssue[], record: QuestionRecord): TransitionOutcome {
  return { ok: false, reason: "invalid", message, issues, record };
}

/**
 * Stages `request.values` as question `request.question`'s part of the shared draft of question record
 * `id`, decided on the record as stored at the write (compare-and-set): replaces that question's values
 * (an empty list removes them), keeps the other questions' values, never answers. Refused like a tap:
 * a chat user who may not answer (`not_allowed`), a question that ended (`answered`, `skipped`, …) or
 * is past its deadline (`expired`, and it is expired on the spot); bad values are `invalid` with
 * issues at `question` / `values[i]`. A changed draft re-renders the chat forms (`refresh`).
 */
export async function stageDraft(
  ctx: BrokerContext,
  id: string,
  request: StageRequest,
  actor: StageActor,
): Promise<TransitionOutcome> {
  const record = await ctx.store.get(id);
  if (!record) return { ok: false, reason: "unknown", message: messagesFor(ctx.locale).refusedUnknown };
  const locale = record.locale;
  const notAllowed = refusalOf(ctx, record, actor);
  if (notAllowed) return { ok: false, ...notAllowed, record };
  const question = record.prompt.questions.find((q) => q.id === request.question);
  if (!question) {
    const ids = record.prompt.questions.map((q) => q.id).join(", ");
    const issue = {
      path: "question",
      message: `No question has the id "${request.question}"; the questions are: ${ids}.`,
    };
    return invalid(new InvalidAskUserInputError([issue]).message, [issue], record);
  }
  const checked = checkStageValues(question, request.values);
  if (!checked.ok)
    return invalid(new InvalidAskUserInputError(checked.issues).message, checked.issues, record);
  const result = await ctx.act(
    id,
    locale,
    (current) => {
      current.draft = withValues(current.draft, question, checked.values);
      if (Object.keys(current.draft).length === 0) delete current.draft;
      // A chat user's own pending Other… ends when they stage; someone else's stays theirs.
      if (current.awaitingText?.userId === actor.userId && current.awaitingText.channel === actor.channel)
        delete current.awaitingText;
      return current;
    },
    { read: record },
  );
  return outcomeOf(result);
}
