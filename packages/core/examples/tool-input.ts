/**
 * One schema for the `ask_user` tool: the JSON Schema a model is given, the check of its call (every
 * problem at once, each with its path), the prompt it becomes, operator answers to it and the result.
 * Run: `npx tsx packages/core/examples/tool-input.ts`.
 */
import {
  askUserResultSchema,
  askUserTool,
  checkAnswers,
  InvalidAskUserInputError,
  normalizeAskUserInput,
} from "@ask-user/core";

// What a model sees: the input side of askUserInputSchema (lengths are counted in grapheme clusters).
type JsonSchema = { properties?: Record<string, JsonSchema>; items?: JsonSchema; description?: string };
const options = (askUserTool.inputSchema as JsonSchema).properties?.questions?.items?.properties?.options;
console.log(`label: ${options?.items?.properties?.label?.description}`);

// A bad call: every problem in one answer, written for the model to fix.
try {
  normalizeAskUserInput({
    questions: [{ id: "Deploy", header: "Deploy", question: "Where?", options: [{ label: "Other" }] }],
    timeoutSeconds: "soon",
  });
} catch (error) {
  if (!(error instanceof InvalidAskUserInputError)) throw error;
  console.log(error.message);
}

// A good one: trimmed, header cut to 12 graphemes, multiSelect and timeoutSeconds set.
const prompt = normalizeAskUserInput({
  questions: [
    {
      id: "deploy_target",
      header: " Deployment target ",
      question: "Where should I deploy?",
      options: [{ label: "Staging (Recommended)" }, { label: "Production 🚀" }],
    },
  ],
  timeoutSeconds: 5,
});
console.log(JSON.stringify(prompt));

// An operator's answers, made canonical; a near miss is refused with "did you mean".
console.log(JSON.stringify(checkAnswers(prompt, { deploy_target: "production 🚀" })));
console.log(JSON.stringify(checkAnswers(prompt, { deploy_target: ["Prodution 🚀"] })));

// The result the agent gets, checked by the schema it is typed by (the MCP outputSchema's source).
console.log(askUserResultSchema.safeParse({ status: "no_answer", reason: "skipped" }).success);
