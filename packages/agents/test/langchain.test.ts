import { ASK_USER_DESCRIPTION } from "@ask-user/core";
import { createFakeClock } from "@ask-user/core/testing";
import { ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { deploy } from "../examples/langchain.ts";
import { createAskUserTool } from "../src/langchain.ts";
import { deployInput, textChat } from "./chat.ts";
import { testGateway } from "./gateway.ts";
import { AskingChatModel, toolMessageSeen } from "./langchain-model.ts";

const call = (args: unknown) => ({
  id: "call-1",
  name: "ask_user",
  args: args as Record<string, unknown>,
  type: "tool_call" as const,
});

describe("LangChain.js: ask_user", () => {
  it("the README example runs against a gateway: the answer given over HTTP reaches the model", async () => {
    const { gateway, answer } = await testGateway();
    process.env.ASK_USER_URL = gateway.url;
    const model = new AskingChatModel(deployInput);

    const running = deploy(model);
    await answer({ deploy_target: ["production"] });

    expect(await running).toBe("Done: answered: deploy_target = Production");
    expect(model.boundTools[0]?.function).toMatchObject({
      name: "ask_user",
      description: ASK_USER_DESCRIPTION,
    });
    const seen = toolMessageSeen(model.calls[1]);
    expect(seen?.tool_call_id).toBe("call-1");
    expect(seen?.artifact).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
  });

  it("asks in the chat and returns a ToolMessage: the line for the model, the result as artifact", async () => {
    const chat = textChat();
    const askUser = createAskUserTool({ backend: chat.broker, target: chat.target, creator: chat.creator });

    const running = askUser.invoke(call(deployInput));
    await chat.shows("Where should I deploy?");
    await chat.reply("1");
    const message = await running;

    expect(message).toBeInstanceOf(ToolMessage);
    expect(message.content).toBe("answered: deploy_target = Staging (Recommended)");
    expect(message.artifact).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Staging (Recommended)"] } },
    });
  });

  it("aborting the call's signal cancels the question, and the chat says so", async () => {
    const chat = textChat();
    const askUser = createAskUserTool({ backend: chat.broker, target: chat.target });
    const run = new AbortController();

    const running = askUser.invoke(call(deployInput), { signal: run.signal });
    await chat.shows("Where should I deploy?");
    run.abort();

    await expect(running).rejects.toThrow();
    await chat.shows(/✖.*cancelled/i);
  });

  it("when nobody answers in time the model is told to continue on its own (gateway)", async () => {
    const clock = createFakeClock(Date.UTC(2026, 0, 1));
    const { client, pending } = await testGateway({ clock });
    const askUser = createAskUserTool({ backend: client });

    const running = askUser.invoke(call({ ...deployInput, timeoutSeconds: 60 }));
    await pending();
    await clock.advance(61_000);

    const message = await running;
    expect(message.content).toBe("no_answer (expired): continue with your best judgment");
    expect(message.artifact).toEqual({ status: "no_answer", reason: "expired" });
  });

  it("input that breaks core's schema is refused before anyone is asked", async () => {
    const chat = textChat();
    const askUser = createAskUserTool({ backend: chat.broker, target: chat.target });
    const bad = { questions: [{ ...deployInput.questions[0], options: [{ label: "Only one" }] }] };

    await expect(askUser.invoke(call(bad))).rejects.toThrow(/options/);
    expect(chat.messages).toEqual([]);
  });
});
