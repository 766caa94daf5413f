import { createFakeClock } from "@ask-user/core/testing";
import { Agent, run } from "@openai/agents";
import { describe, expect, it } from "vitest";
import { deploy } from "../examples/openai-agents.ts";
import { createAskUserTool } from "../src/openai-agents.ts";
import { deployInput, textChat } from "./chat.ts";
import { testGateway } from "./gateway.ts";
import { AskingModel, toolOutputSeen } from "./openai-model.ts";

function agentWith(model: AskingModel, tool: ReturnType<typeof createAskUserTool>) {
  return new Agent({ name: "deployer", instructions: "Deploy.", model, tools: [tool] });
}

describe("OpenAI Agents SDK: ask_user", () => {
  it("asks in the chat; the reply goes back to the model as one line, the structured result as customData", async () => {
    const chat = textChat();
    const model = new AskingModel(deployInput);
    const tool = createAskUserTool({ backend: chat.broker, target: chat.target, creator: chat.creator });

    const running = run(agentWith(model, tool), "Deploy the release.");
    await chat.shows("Where should I deploy?");
    await chat.reply("Production");
    const result = await running;

    expect(toolOutputSeen(model.requests[1])).toBe("answered: deploy_target = Production");
    expect(result.finalOutput).toBe("Done: answered: deploy_target = Production");
    const output = result.newItems.find((item) => item.type === "tool_call_output_item");
    expect(output?.type === "tool_call_output_item" && output.customData).toEqual({
      askUser: { status: "answered", answers: { answers: { deploy_target: ["Production"] } } },
    });
  });

  it("the README example runs against a gateway: the answer given over HTTP reaches the model", async () => {
    const { gateway, answer } = await testGateway();
    process.env.ASK_USER_URL = gateway.url;
    const model = new AskingModel(deployInput);

    const running = deploy(model);
    await answer({ deploy_target: ["Staging"] });

    expect(await running).toBe("Done: answered: deploy_target = Staging (Recommended)");
  });

  it("aborting the run cancels the question on the gateway", async () => {
    const { client, pending, all } = await testGateway();
    const controller = new AbortController();
    const model = new AskingModel(deployInput);

    const running = run(agentWith(model, createAskUserTool({ backend: client })), "Deploy.", {
      signal: controller.signal,
    });
    await pending();
    controller.abort();

    await expect(running).rejects.toThrow();
    await expect.poll(async () => (await all())[0]?.status).toBe("cancelled");
  });

  it("when nobody answers in time the model is told to continue on its own", async () => {
    const clock = createFakeClock(Date.UTC(2026, 0, 1));
    const chat = textChat({ clock });
    const model = new AskingModel({ ...deployInput, timeoutSeconds: 60 });

    const running = run(
      agentWith(model, createAskUserTool({ backend: chat.broker, target: chat.target })),
      "Deploy.",
    );
    await chat.shows("Where should I deploy?");
    await clock.advance(61_000);

    expect((await running).finalOutput).toBe("Done: no_answer (expired): continue with your best judgment");
    await chat.shows(/⌛.*expired/i);
  });

  it("input core's rules refuse goes back to the model with every problem and its path; nobody is asked", async () => {
    const chat = textChat();
    const bad = {
      questions: [{ ...deployInput.questions[0], id: "Deploy Target", options: [{ label: "Other" }] }],
    };
    const model = new AskingModel(bad);

    await run(agentWith(model, createAskUserTool({ backend: chat.broker, target: chat.target })), "Deploy.");

    const seen = toolOutputSeen(model.requests[1]) ?? "";
    expect(seen).toContain("- questions[0].id: ");
    expect(seen).toContain("- questions[0].options");
    expect(chat.messages).toEqual([]);
  });
});
