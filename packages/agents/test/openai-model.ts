import { type Model, type ModelRequest, type ModelResponse, Usage } from "@openai/agents";

/** What the model saw of `ask_user`'s result in a request: the function call result's output, if any. */
export function toolOutputSeen(request: ModelRequest | undefined): string | undefined {
  if (request === undefined || typeof request.input === "string") return undefined;
  for (const item of request.input) {
    if (item.type !== "function_call_result") continue;
    const output = item.output;
    if (typeof output === "string") return output;
    if (!Array.isArray(output) && output.type === "text") return output.text;
  }
  return undefined;
}

/**
 * A `Model` that behaves like an agent that asks: its first response calls `ask_user` with `input`,
 * every later one ends the turn with "Done: <what the tool returned>". It keeps the requests it got.
 */
export class AskingModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly input: unknown) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const seen = toolOutputSeen(request);
    if (seen === undefined) {
      return {
        usage: new Usage(),
        output: [
          {
            type: "function_call",
            callId: "call-1",
            name: "ask_user",
            arguments: JSON.stringify(this.input),
            status: "completed",
          },
        ],
      };
    }
    return {
      usage: new Usage(),
      output: [
        {
          type: "message",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: `Done: ${seen}` }],
        },
      ],
    };
  }

  // biome-ignore lint/correctness/useYield: this model never streams; the tests use run() without stream.
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error("AskingModel does not stream");
  }
}
