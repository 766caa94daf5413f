import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { testGateway } from "./harness.ts";

/** A GET with a chosen Host header (fetch does not let a page or a test set it). */
function getWithHost(url: string, host: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { headers: { host, ...headers } }, (res) => {
      let body = "";
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the DNS-rebinding guard of a gateway without a token", () => {
  it("answers to its own names and refuses others with 403 and a JSON reason", async () => {
    const gw = await testGateway({ ASK_USER_ALLOWED_HOSTS: "panel.local" });
    const port = new URL(gw.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `panel.local:${port}`]) {
      expect((await getWithHost(`${gw.url}/v1/questions`, host)).status).toBe(200);
    }
    const evil = await getWithHost(`${gw.url}/v1/questions`, `evil.example:${port}`);
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body).error).toMatchObject({ code: "forbidden_host" });
    expect((await getWithHost(`${gw.url}/`, "evil.example")).status).toBe(403);
  });

  it("leaves the check to the token when one is set", async () => {
    const token = "host-token-0123456789abcdef";
    const gw = await testGateway({ ASK_USER_TOKEN: token });
    const answer = await getWithHost(`${gw.url}/v1/questions`, "ask.example.org", {
      authorization: `Bearer ${token}`,
    });
    expect(answer.status).toBe(200);
    expect((await getWithHost(`${gw.url}/v1/questions`, "ask.example.org")).status).toBe(401);
  });
});
