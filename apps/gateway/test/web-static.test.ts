import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createAskUser, createMemoryStore } from "@ask-user/core";
import { ensureWebBuild, webBuildIsStale, webDistDir } from "@ask-user/web/dev";
import { pino } from "pino";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createHttpServer, type HttpServer } from "../src/http/server.ts";
import { banner } from "../src/start.ts";
import { tempDir, testGateway } from "./harness.ts";

const TOKEN = "static-files-test-token-0123456789";
const servers: HttpServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** The gateway's HTTP server over a memory store, serving the panel from `webRoot`. */
async function serve(webRoot: string, token: string | undefined = TOKEN): Promise<string> {
  const broker = createAskUser({ store: createMemoryStore(), channels: [] });
  const http = createHttpServer({
    broker,
    token,
    defaultTarget: undefined,
    channels: new Set(),
    logger: pino({ level: "silent" }),
    webRoot,
  });
  servers.push(http);
  await new Promise<void>((resolve) => http.server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
}

/** A small fake build: an index page and one hashed script. */
function fakeBuild(): string {
  const root = tempDir();
  mkdirSync(join(root, "assets"));
  writeFileSync(join(root, "index.html"), '<!doctype html><script src="/assets/index-abc123.js"></script>');
  writeFileSync(join(root, "assets", "index-abc123.js"), "console.log('panel')");
  writeFileSync(join(root, "assets", "index-abc123.css"), "body{}");
  writeFileSync(join(root, "secret.txt"), "not for the web");
  return root;
}

describe("the gateway serves the web panel", () => {
  beforeAll(async () => {
    await ensureWebBuild();
  }, 60_000);

  it("serves the page at / without a token, with a strict content policy, while /v1 still needs the token", async () => {
    const url = await serve(fakeBuild());
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("no-cache");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await page.text()).toContain("/assets/index-abc123.js");

    expect((await fetch(`${url}/v1/questions`)).status).toBe(401);
    const json = await fetch(`${url}/`, { headers: { accept: "application/json" } });
    expect(await json.json()).toEqual({
      name: "ask-user",
      web: "/",
      api: "/v1",
      mcp: "/mcp",
      events: "/v1/events",
    });
  });

  it("serves hashed assets with their type and long caching, and nothing outside the assets folder", async () => {
    const url = await serve(fakeBuild());
    const script = await fetch(`${url}/assets/index-abc123.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await script.text()).toBe("console.log('panel')");
    expect((await fetch(`${url}/assets/index-abc123.css`)).headers.get("content-type")).toBe(
      "text/css; charset=utf-8",
    );

    for (const path of [
      "/assets/missing.js",
      "/assets/..%2fsecret.txt",
      "/assets/%2e%2e%2fsecret.txt",
      "/assets/..%5csecret.txt",
      "/assets/index-abc123.js%00.txt",
    ]) {
      const response = await fetch(`${url}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain("not for the web");
    }
    // Anything else still needs the token, as before.
    expect((await fetch(`${url}/secret.txt`)).status).toBe(401);
  });

  it("answers 503 with how to build the panel when it is not built", async () => {
    const url = await serve(join(tempDir(), "no-build-here"));
    const response = await fetch(`${url}/`);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain("pnpm --filter @ask-user/web build");
  });

  it("serves the real Vite build by default, small and current", async () => {
    expect(webBuildIsStale()).toBe(false);
    const gw = await testGateway({ ASK_USER_TOKEN: TOKEN });
    const html = await (await fetch(`${gw.url}/`)).text();
    const scripts = [...html.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]);
    expect(scripts).toHaveLength(1);
    const script = await fetch(`${gw.url}${scripts[0]}`);
    expect(script.status).toBe(200);
    const bytes = (await script.arrayBuffer()).byteLength;
    // Preact, the panel and core's catalogue only (core's zod schema stays out): about 40 kB.
    expect(bytes).toBeLessThan(60_000);
    expect(readFileSync(join(webDistDir, "index.html"), "utf8")).toBe(html);
  });

  it("prints the panel's URL in the banner, never the token", async () => {
    const open = await testGateway();
    expect(banner(open)).toContain(`  Web panel    ${open.url}/\n`);
    const locked = await testGateway({ ASK_USER_TOKEN: TOKEN });
    expect(banner(locked)).toContain(
      `  Web panel    ${locked.url}/ (open it and paste the value of ASK_USER_TOKEN)\n`,
    );
    expect(banner(locked)).not.toContain(TOKEN);
    expect(banner(locked)).not.toContain("token=");
  });
});
