import type { McpSdkServerConfigWithInstance } from "@anthropic-ai/claude-agent-sdk";
import { ASK_USER_DESCRIPTION } from "@ask-user/core";
import { createFakeClock } from "@ask-user/core/testing";
import { describe, expect, it } from "vitest";
import { askUserOptions } from "../examples/claude-agent-sdk.ts";
import { ASK_USER_CALL_TIMEOUT_MS, createAskUserMcpServer } from "../src/claude-agent-sdk.ts";
import { deployInput, textChat } from "./chat.ts";
import { testGateway } from "./gateway.ts";
import { connect } from "./mcp-client.ts";

const text = (result: unknown) =>
  (result as { content: Array<{ text: string }> }).content.map((c) => c.text).join("\n");

describe("Claude Agent SDK: ask_user as an in-process MCP tool", () => {
  it("the README example's server lists ask_user with core's guidance; a call is answered over HTTP", async () => {
    const { gateway, answer, all } = await testGateway();
    process.env.ASK_USER_URL = gateway.url;
    const options = askUserOptions(new AbortController());
    expect(options.allowedTools).toEqual(["mcp__ask-user__ask_user"]);
    const server = options.mcpServers?.["ask-user"] as McpSdkServerConfigWithInstance;
    const client = await connect(server);

    const { tools } = await client.listTools();
    expect(tools.map((tool) => [tool.name, tool.description])).toEqual([["ask_user", ASK_USER_DESCRIPTION]]);
    expect(Object.keys(tools[0]?.inputSchema.properties ?? {})).toEqual(["questions", "timeoutSeconds"]);

    const calling = client.callTool({ name: "ask_user", arguments: deployInput });
    await answer({ deploy_target: ["Production"] });
    const result = await calling;

    expect(text(result)).toBe("answered: deploy_target = Production");
    expect(result.structuredContent).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect((await all())[0]?.runId).toBe("deploy-1");
  });

  it("cancelling the MCP call (as an interrupted query does) cancels the question in the chat", async () => {
    const chat = textChat();
    const client = await connect(createAskUserMcpServer({ backend: chat.broker, target: chat.target }));
    const run = new AbortController();

    const calling = client.callTool({ name: "ask_user", arguments: deployInput }, undefined, {
      signal: run.signal,
    });
    await chat.shows("Where should I deploy?");
    run.abort();

    await expect(calling).rejects.toThrow();
    await chat.shows(/✖.*cancelled/i);
  });

  it("a reply in the chat comes back as text and structuredContent", async () => {
    const chat = textChat();
    const client = await connect(
      createAskUserMcpServer({ backend: chat.broker, target: chat.target, creator: chat.creator }),
    );

    const calling = client.callTool({ name: "ask_user", arguments: deployInput });
    await chat.shows("Where should I deploy?");
    await chat.reply("skip");

    const result = await calling;
    expect(text(result)).toBe(
      "no_answer (skipped): the user chose not to answer; continue with your best judgment",
    );
    expect(result.structuredContent).toEqual({ status: "no_answer", reason: "skipped" });
  });

  it("when nobody answers in time the call says so", async () => {
    const clock = createFakeClock(Date.UTC(2026, 0, 1));
    const chat = textChat({ clock });
    const client = await connect(createAskUserMcpServer({ backend: chat.broker, target: chat.target }));

    const calling = client.callTool({ name: "ask_user", arguments: { ...deployInput, timeoutSeconds: 30 } });
    await chat.shows("Where should I deploy?");
    await clock.advance(31_000);

    expect(text(await calling)).toBe("no_answer (expired): continue with your best judgment");
    await chat.shows(/⌛.*expired/i);
  });

  it("bad input is an isError result naming the problem; nobody is asked", async () => {
    const chat = textChat();
    const client = await connect(createAskUserMcpServer({ backend: chat.broker, target: chat.target }));
    const bad = {
      questions: [{ ...deployInput.questions[0], options: [{ label: "Staging" }, { label: "Other" }] }],
    };

    const result = await client.callTool({ name: "ask_user", arguments: bad });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("Other");
    expect(chat.messages).toEqual([]);
  });

  it("the server's call timeout outlasts the longest question", () => {
    expect(ASK_USER_CALL_TIMEOUT_MS).toBeGreaterThan(3600 * 1000);
  });
});
