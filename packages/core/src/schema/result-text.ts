import type { AskUserResult } from "../model/types.ts";

type NoAnswerReason = Extract<AskUserResult, { status: "no_answer" }>["reason"];

const NO_ANSWER_TEXT: Record<NoAnswerReason, string> = {
  expired: "no_answer (expired): continue with your best judgment",
  skipped: "no_answer (skipped): the user chose not to answer; continue with your best judgment",
  cancelled: "no_answer (cancelled): the question was cancelled; continue with your best judgment",
  undeliverable:
    "no_answer (undeliverable): the question could not be delivered; continue with your best judgment",
};

/**
 * The one line a model reads, on every surface (MCP, the agent-framework adapters): `answered:
 * deploy_target = Production` (several questions joined by `; `, in the order they were asked) or
 * `no_answer (expired): continue with your best judgment`. Values with a comma, semicolon or line break
 * are written as a JSON array so the line stays unambiguous.
 *
 * @example
 * askUserResultText({ status: "no_answer", reason: "skipped" });
 * // "no_answer (skipped): the user chose not to answer; continue with your best judgment"
 */
export function askUserResultText(
  result: AskUserResult,
  asked?: { questions: ReadonlyArray<{ id: string }> },
): string {
  if (result.status === "no_answer") return NO_ANSWER_TEXT[result.reason];
  const answers = result.answers.answers;
  const order = asked?.questions.map((q) => q.id).filter((id) => answers[id] !== undefined) ?? [];
  const ids = [...order, ...Object.keys(answers).filter((id) => !order.includes(id))];
  return `answered: ${ids.map((id) => `${id} = ${valuesText(answers[id] ?? [])}`).join("; ")}`;
}

function valuesText(values: string[]): string {
  if (values.length === 0) return "(nothing)";
  return values.some((value) => /[,;\n\r]/.test(value)) ? JSON.stringify(values) : values.join(", ");
}
