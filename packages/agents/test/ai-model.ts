import { MockLanguageModelV3 } from "ai/test";

type CallOptions = Parameters<MockLanguageModelV3["doGenerate"]>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** What the model saw of the tool's result in the prompt of a call: its output part, if any. */
export function toolOutputSeen(call: CallOptions | undefined): unknown {
  for (const message of call?.prompt ?? []) {
    if (message.role !== "tool") continue;
    for (const part of message.content) if (part.type === "tool-result") return part.output;
  }
  return undefined;
}

/**
 * The AI SDK's own mock model scripted as an agent would behave: the first call asks with `ask_user`
 * (the given input), every later call ends the turn with "Done: <what the tool returned>".
 */
export function askingModel(input: unknown): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options): Promise<GenerateResult> => {
      const seen = toolOutputSeen(options);
      if (seen === undefined) {
        return {
          content: [
            { type: "tool-call", toolCallId: "call-1", toolName: "ask_user", input: JSON.stringify(input) },
          ],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage,
          warnings: [],
        };
      }
      const value = (seen as { value?: unknown }).value;
      return {
        content: [
          { type: "text", text: `Done: ${typeof value === "string" ? value : JSON.stringify(value)}` },
        ],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      };
    },
  });
}
