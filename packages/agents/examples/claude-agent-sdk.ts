import { type Options, query } from "@anthropic-ai/claude-agent-sdk";
import { createAskUserMcpServer } from "@ask-user/agents/claude-agent-sdk";
import { createAskUserClient } from "@ask-user/client";

/** Query options that give Claude `ask_user`, answered through a running gateway (`pnpm start`). */
export function askUserOptions(abort: AbortController): Options {
  const backend = createAskUserClient({
    url: process.env.ASK_USER_URL ?? "http://127.0.0.1:7310",
    token: process.env.ASK_USER_TOKEN,
  });
  return {
    mcpServers: { "ask-user": createAskUserMcpServer({ backend, runId: "deploy-1" }) },
    allowedTools: ["mcp__ask-user__ask_user"],
    abortController: abort, // aborting cancels a question that is waiting
  };
}

/** One agent run; Claude calls `mcp__ask-user__ask_user` when it needs the user's decision. */
export async function deploy(abort = new AbortController()): Promise<string | undefined> {
  const run = query({
    prompt: "Deploy the release. Ask me where to, if unsure.",
    options: askUserOptions(abort),
  });
  for await (const message of run) {
    if (message.type === "result") return message.subtype === "success" ? message.result : undefined;
  }
  return undefined;
}
