import { createAskUserTool } from "@ask-user/agents/openai-agents";
import { createAskUserClient } from "@ask-user/client";
import { Agent, type Model, run } from "@openai/agents";

/** One agent run that may ask the user through a running gateway (`pnpm start`). */
export async function deploy(model: Model | string, signal?: AbortSignal): Promise<string | undefined> {
  const agent = new Agent({
    name: "deployer",
    instructions: "Deploy the release. Ask the user where to, if you cannot tell.",
    model, // e.g. "gpt-5", or any Model
    tools: [
      createAskUserTool({
        backend: createAskUserClient({
          url: process.env.ASK_USER_URL ?? "http://127.0.0.1:7310",
          token: process.env.ASK_USER_TOKEN,
        }),
        runId: "deploy-1",
      }),
    ],
  });
  const result = await run(agent, "Deploy the release.", signal ? { signal } : {});
  return result.finalOutput;
}
