import { createFakeClock } from "@ask-user/core/testing";
import { generateText, stepCountIs } from "ai";
import { describe, expect, it } from "vitest";
import { deploy } from "../examples/ai.ts";
import { createAskUserTool } from "../src/ai.ts";
import { askingModel, toolOutputSeen } from "./ai-model.ts";
import { deployInput, textChat } from "./chat.ts";
import { testGateway } from "./gateway.ts";

describe("Vercel AI SDK: ask_user", () => {
  it("asks in the chat; the person's reply goes back to the model as one line, the output stays structured", async () => {
    const chat = textChat();
    const model = askingModel(deployInput);
    const tool = createAskUserTool({ backend: chat.broker, target: chat.target, creator: chat.creator });

    const running = generateText({
      model,
      tools: { ask_user: tool },
      stopWhen: stepCountIs(3),
      prompt: "Deploy.",
    });
    await chat.shows("Where should I deploy?");
    await chat.reply("2");
    const result = await running;

    expect(toolOutputSeen(model.doGenerateCalls[1])).toEqual({
      type: "text",
      value: "answered: deploy_target = Production",
    });
    expect(result.text).toBe("Done: answered: deploy_target = Production");
    expect(result.steps[0]?.toolResults[0]?.output).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(chat.messages[0]?.text).toContain("✅ Deploy: Production");
  });

  it("the README example runs against a gateway: the answer given over HTTP reaches the model", async () => {
    const { gateway, answer, all } = await testGateway();
    process.env.ASK_USER_URL = gateway.url;
    const model = askingModel(deployInput);

    const running = deploy(model);
    await answer({ deploy_target: ["staging"] });

    expect(await running).toBe("Done: answered: deploy_target = Staging (Recommended)");
    expect((await all()).map((q) => [q.runId, q.status])).toEqual([["deploy-1", "answered"]]);
  });

  it("aborting the generation cancels the question, and the chat says so", async () => {
    const chat = textChat();
    const tool = createAskUserTool({ backend: chat.broker, target: chat.target });
    const run = new AbortController();

    const running = generateText({
      model: askingModel(deployInput),
      tools: { ask_user: tool },
      stopWhen: stepCountIs(3),
      prompt: "Deploy.",
      abortSignal: run.signal,
    });
    await chat.shows("Where should I deploy?");
    run.abort();

    await expect(running).rejects.toThrow();
    await chat.shows(/✖.*cancelled/i);
    expect((await chat.broker.list({}))[0]?.status).toBe("cancelled");
  });

  it("when nobody answers in time the model is told to continue on its own", async () => {
    const clock = createFakeClock(Date.UTC(2026, 0, 1));
    const { client } = await testGateway({ clock });
    const model = askingModel({ ...deployInput, timeoutSeconds: 60 });
    const running = generateText({
      model,
      tools: { ask_user: createAskUserTool({ backend: client }) },
      stopWhen: stepCountIs(3),
      prompt: "Deploy.",
    });
    await (async () => {
      while ((await client.listPage({ status: "pending" })).questions.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await clock.advance(61_000);

    expect((await running).text).toBe("Done: no_answer (expired): continue with your best judgment");
  });

  it("input core's rules refuse reaches the model as a tool error with paths, and nobody is asked", async () => {
    const chat = textChat();
    const bad = {
      questions: [{ ...deployInput.questions[0], options: [{ label: "Staging" }, { label: "Other" }] }],
    };
    const model = askingModel(bad);
    const result = await generateText({
      model,
      tools: { ask_user: createAskUserTool({ backend: chat.broker, target: chat.target }) },
      stopWhen: stepCountIs(3),
      prompt: "Deploy.",
    });

    const seen = toolOutputSeen(model.doGenerateCalls[1]) as { type: string; value: string };
    expect(seen.type).toBe("error-text");
    // Refused by the SDK's check against core's schema (paths as arrays) or by the normaliser.
    expect(seen.value).toMatch(/Remove the \\?"Other\\?" option/);
    expect(seen.value).toMatch(/"options",\s*1,\s*"label"|questions\[0\]\.options\[1\]\.label/);
    expect(result.text).toContain("Other");
    expect(chat.messages).toEqual([]);
  });
});
