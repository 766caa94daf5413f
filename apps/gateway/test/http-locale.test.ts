import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { call, deployInput, testGateway, textWebhook } from "./harness.ts";

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

const GERMAN_HINT = "Antworte mit der Nummer oder Bezeichnung einer Option";
const ENGLISH_HINT = "Reply with";

describe("a per-question locale", () => {
  it("over HTTP: a German question is written in German in an English gateway, and says so on the record", async () => {
    const hook = await textWebhook();
    const gw = await testGateway({ ASK_USER_TEXT_WEBHOOK_URL: hook.url, ASK_USER_LOCALE: "en" });
    const german = await call(`${gw.url}/v1/questions`, "POST", {
      ...deployInput,
      target: "text:alice",
      locale: "de-AT",
    });
    expect(german.status).toBe(201);
    expect(german.body.locale).toBe("de");
    expect(hook.texts[0]).toContain(GERMAN_HINT);
    expect(hook.texts[0]).toContain("Läuft ab um");

    const english = await call(`${gw.url}/v1/questions`, "POST", { ...deployInput, target: "text:bob" });
    expect(english.body.locale).toBe("en");
    expect(hook.texts[1]).toContain(ENGLISH_HINT);
    expect(hook.texts[1]).not.toContain(GERMAN_HINT);
  });

  it("over HTTP: a locale that is not a BCP 47 tag is refused with a field-level issue, on both create routes", async () => {
    const gw = await testGateway();
    for (const [route, locale] of [
      ["/v1/questions", "german"],
      ["/v1/ask", "de_DE!"],
      ["/v1/questions", 49],
    ] as const) {
      const response = await call(`${gw.url}${route}`, "POST", { ...deployInput, locale });
      expect(response.status).toBe(422);
      expect(response.body.error.issues).toEqual([
        { path: "locale", message: expect.stringContaining("BCP 47 language tag") },
      ]);
    }
    const list = await call(`${gw.url}/v1/questions`, "GET");
    expect(list.body.questions).toEqual([]);
  });

  it("over MCP: ask_user lists locale as the language of the person asked and writes the prompt in it", async () => {
    const hook = await textWebhook();
    const gw = await testGateway({ ASK_USER_TEXT_WEBHOOK_URL: hook.url });
    const client = new Client({ name: "locale", version: "1.0.0" });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`)));
    const { tools } = await client.listTools();
    const schema = tools[0]?.inputSchema.properties?.locale as { description: string; type: string };
    expect(schema.type).toBe("string");
    expect(schema.description).toContain("language of the person you ask");

    const bad = await client.callTool({
      name: "ask_user",
      arguments: { ...deployInput, target: "text:alice", locale: "not a tag" },
    });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("locale: ");
    expect(hook.texts).toEqual([]);

    const asking = client.callTool(
      { name: "ask_user", arguments: { ...deployInput, target: "text:alice", locale: "de" } },
      CallToolResultSchema,
      { timeout: 30_000 },
    );
    for (let i = 0; i < 200 && hook.texts.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(hook.texts[0]).toContain(GERMAN_HINT);
    const { body } = await call(`${gw.url}/v1/questions?status=pending`, "GET");
    expect(body.questions[0].locale).toBe("de");
    await call(`${gw.url}/v1/channels/text/inbound`, "POST", {
      conversation: "alice",
      userId: "alice",
      text: "1",
      replyTo: "m1",
    });
    expect((await asking).structuredContent).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Staging (Recommended)"] } },
    });
  }, 40_000);
});
