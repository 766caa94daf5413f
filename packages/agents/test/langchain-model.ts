import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import type { BaseChatModelCallOptions, BindToolsInput } from "@langchain/core/language_models/chat_models";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type AIMessageChunk, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";

/** The tool message the model was shown, if any. */
export function toolMessageSeen(messages: BaseMessage[] | undefined): ToolMessage | undefined {
  return messages?.find((message): message is ToolMessage => ToolMessage.isInstance(message));
}

/**
 * A minimal chat model that behaves like an agent that asks: bound to tools, its first reply calls
 * `ask_user` with `input`; once it has seen the tool's message it ends with "Done: <content>". It keeps
 * every message list it was given and the tool definitions it was bound to (as a provider gets them).
 */
export class AskingChatModel extends BaseChatModel {
  readonly calls: BaseMessage[][] = [];
  boundTools: Array<ReturnType<typeof convertToOpenAITool>> = [];

  constructor(private readonly input: unknown) {
    super({});
  }

  _llmType(): string {
    return "asking";
  }

  override bindTools(tools: BindToolsInput[]): Runnable<BaseLanguageModelInput, AIMessageChunk> {
    this.boundTools = tools.map((tool) => convertToOpenAITool(tool));
    return this.withConfig({} as Partial<BaseChatModelCallOptions>);
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.calls.push(messages);
    const seen = toolMessageSeen(messages);
    const message = seen
      ? new AIMessage(`Done: ${String(seen.content)}`)
      : new AIMessage({
          content: "",
          tool_calls: [
            {
              id: "call-1",
              name: "ask_user",
              args: this.input as Record<string, unknown>,
              type: "tool_call",
            },
          ],
        });
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}
