import { createAskUserClient } from "@ask-user/client";
import { describe, expect, it } from "vitest";
import { listAll } from "../src/cli/command.ts";
import { call, deployInput, testGateway } from "./harness.ts";

describe("GET /v1/questions pages", () => {
  it("hands out pages with nextCursor, oldest first, and refuses bad paging parameters precisely", async () => {
    const gw = await testGateway();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await call(`${gw.url}/v1/questions`, "POST", deployInput)).body.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const query = cursor ? `&cursor=${cursor}` : "";
      const page = await call(`${gw.url}/v1/questions?status=pending&limit=3${query}`, "GET");
      expect(page.status).toBe(200);
      expect(page.body.questions.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.questions.map((q: { id: string }) => q.id));
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
    const bad = await call(`${gw.url}/v1/questions?limit=0&cursor=nope&status=done`, "GET");
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues.map((i: { path: string }) => i.path)).toEqual(["status", "limit", "cursor"]);
  });

  it("the HTTP client (CLI, MCP stdio) pages through everything", async () => {
    const gw = await testGateway();
    for (let i = 0; i < 3; i++) await call(`${gw.url}/v1/questions`, "POST", deployInput);
    expect(await listAll(createAskUserClient({ url: gw.url }), { status: "pending" })).toHaveLength(3);
  });
});
