import { createAskUserTool } from "@ask-user/agents/ai";
import { createAskUserClient } from "@ask-user/client";
import { generateText, type LanguageModel, stepCountIs } from "ai";

/** One agent turn that may ask the user through a running gateway (`pnpm start`). */
export async function deploy(model: LanguageModel, signal?: AbortSignal): Promise<string> {
  const askUser = createAskUserTool({
    backend: createAskUserClient({
      url: process.env.ASK_USER_URL ?? "http://127.0.0.1:7310",
      token: process.env.ASK_USER_TOKEN,
    }),
    runId: "deploy-1",
  });
  const { text } = await generateText({
    model, // e.g. anthropic("claude-sonnet-4-5") or openai("gpt-5")
    tools: { ask_user: askUser },
    stopWhen: stepCountIs(5),
    prompt: "Deploy the release. Ask me where to, if you cannot tell.",
    ...(signal ? { abortSignal: signal } : {}),
  });
  return text;
}
