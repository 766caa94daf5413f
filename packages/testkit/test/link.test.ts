import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createLink, type Link } from "../src/link.ts";

const links: Link[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const link of links.splice(0)) await link.close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server that says which path it was asked for. */
async function echoServer(): Promise<number> {
  const server = createServer((req, res) => res.end(`hello ${req.url}`));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

async function get(url: string): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  return response.text();
}

describe("a link in front of a fake", () => {
  it("cuts every connection while down, pipes them once up, and cuts them again when down", async () => {
    const port = await echoServer();
    const link = await createLink();
    links.push(link);
    expect(link.isUp).toBe(false);
    const failure = await get(link.url("/a")).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError); // fetch failed: a network error, no HTTP answer
    expect(link.refused).toBe(1);

    link.up(`http://127.0.0.1:${port}/api`);
    expect(await get(link.url("/b"))).toBe("hello /b");
    expect(link.piped).toBe(1);

    link.down({ cutOpen: true });
    await expect(get(link.url("/c"))).rejects.toBeInstanceOf(TypeError);
    expect(link.refused).toBe(2);
  });

  it("can start up, and waits for a condition on its connections", async () => {
    const port = await echoServer();
    const link = await createLink(port);
    links.push(link);
    const seen = link.waitUntil(() => link.piped >= 1 && link.piped, 5_000);
    expect(await get(link.url("/x"))).toBe("hello /x");
    expect(await seen).toBe(1);
    expect(() => link.up("http://127.0.0.1/no-port")).toThrow("link: no port");
  });
});
