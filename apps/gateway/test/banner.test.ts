import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { banner } from "../src/start.ts";
import { testGateway } from "./harness.ts";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function hook(): Promise<string> {
  const server = createServer((_req, res) => res.end("{}"));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe("the banner on who may answer (SPEC §5)", () => {
  it("warns when the default target is a shared chat and only creators may answer", async () => {
    const url = await hook();
    // The text channel counts its conversations as one-to-one (an SMS thread): no warning.
    const direct = await testGateway({ ASK_USER_TEXT_WEBHOOK_URL: url, ASK_USER_DEFAULT_TARGET: "text:ops" });
    expect(banner(direct)).not.toContain("shared chat");
    const group = await testGateway({ ASK_USER_TEXT_WEBHOOK_URL: url, ASK_USER_DEFAULT_TARGET: "text:ops" });
    // The same target as a group chat (what Telegram says of a negative chat id): a warning.
    const text = group.channels.find((c) => c.channel.name === "text")?.channel;
    if (!text) throw new Error("no text channel");
    Object.assign(text, { isDirect: () => false });
    expect(banner(group)).toContain("text:ops is a shared chat");
    expect(banner(group)).toContain("ASK_USER_ANSWERERS=conversation");
    const open = await testGateway({
      ASK_USER_TEXT_WEBHOOK_URL: url,
      ASK_USER_DEFAULT_TARGET: "text:ops",
      ASK_USER_ANSWERERS: "conversation",
    });
    Object.assign(open.channels.find((c) => c.channel.name === "text")?.channel ?? {}, {
      isDirect: () => false,
    });
    expect(banner(open)).not.toContain("shared chat");
  });
});
