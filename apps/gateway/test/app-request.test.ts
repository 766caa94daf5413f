/**
 * The HTTP app served without a socket (`http.app.request(…)`, as an embedding host or another runtime
 * does): a JSON body arrives whether or not the request says its length.
 */
import { createAskUser, createMemoryStore } from "@ask-user/core";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpServer, type HttpServer } from "../src/http/server.ts";
import { deployInput } from "./harness.ts";

const servers: HttpServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

function app() {
  const http = createHttpServer({
    broker: createAskUser({ store: createMemoryStore(), channels: [] }),
    token: undefined,
    defaultTarget: undefined,
    channels: new Set(),
    logger: pino({ level: "silent" }),
  });
  servers.push(http);
  return http.app;
}

describe("the HTTP app without a socket", () => {
  it("reads a JSON body that comes without a Content-Length", async () => {
    const served = app();
    const body = JSON.stringify(deployInput);
    const created = await served.request("http://localhost/v1/questions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const answered = await served.request(`http://localhost/v1/questions/${id}/answer`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": "44" },
      body: JSON.stringify({ answers: { deploy_target: ["Production"] } }),
    });
    expect(answered.status).toBe(200);
    expect(await answered.json()).toMatchObject({ status: "answered" });
  });

  it("still refuses a body that is not JSON, and one over the limit", async () => {
    const served = app();
    const form = await served.request("http://localhost/v1/questions", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "a=1",
    });
    expect(form.status).toBe(415);
    const large = await served.request("http://localhost/v1/questions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `"${"x".repeat(1024 * 1024 + 1)}"`,
    });
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ error: { code: "body_too_large" } });
  });
});
