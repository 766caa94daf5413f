import { createAskUserTool } from "@ask-user/agents/langchain";
import { createAskUserClient } from "@ask-user/client";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { type BaseMessage, HumanMessage } from "@langchain/core/messages";

/** A tool loop that may ask the user through a running gateway (`pnpm start`). */
export async function deploy(chatModel: BaseChatModel, signal?: AbortSignal): Promise<string> {
  const askUser = createAskUserTool({
    backend: createAskUserClient({
      url: process.env.ASK_USER_URL ?? "http://127.0.0.1:7310",
      token: process.env.ASK_USER_TOKEN,
    }),
    runId: "deploy-1",
  });
  if (!chatModel.bindTools) throw new TypeError("this chat model cannot call tools");
  const model = chatModel.bindTools([askUser]); // e.g. new ChatAnthropic({ model: "claude-sonnet-4-5" })
  const config = signal ? { signal } : {};
  const messages: BaseMessage[] = [new HumanMessage("Deploy the release. Ask me where to, if unsure.")];
  for (let step = 0; step < 5; step++) {
    const reply = await model.invoke(messages, config);
    messages.push(reply);
    if (!reply.tool_calls?.length) return reply.text;
    for (const call of reply.tool_calls) messages.push(await askUser.invoke(call, config));
  }
  throw new Error("no answer after 5 steps");
}
