import { createFakeDiscord, type FakeDiscord } from "@ask-user/testkit/discord";
import { afterEach, describe, expect, it } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";

const fakes: FakeDiscord[] = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});

describe("the gateway with Discord (real discord.js against the fake REST API and gateway)", () => {
  it("a question asked over HTTP is answered by a Discord tap, and the message is updated to the summary", async () => {
    const discord = await createFakeDiscord();
    fakes.push(discord);
    const gw = await testGateway({
      ASK_USER_ANSWERERS: "conversation", // a shared channel, no creator
      DISCORD_BOT_TOKEN: discord.token,
      DISCORD_API_URL: discord.apiUrl,
    });
    expect(gw.channels.map((c) => c.describe)).toEqual([expect.stringContaining("discord")]);

    const channelId = discord.guild.channelId;
    const created = await call(`${gw.url}/v1/questions`, "POST", {
      ...deployInput,
      target: `discord:${channelId}`,
    });
    expect(created.status).toBe(201);
    const prompt = await discord.waitUntil(() =>
      discord.messages(channelId).find((m) => m.content.includes("Where should I deploy?")),
    );
    const ada = discord.user({ id: "42", username: "ada" });
    await discord.waitForResponse(ada.click(channelId, prompt.id, "Production"));

    const polled = await call(`${gw.url}/v1/questions/${created.body.id}?wait=5`, "GET");
    expect(polled.body).toMatchObject({
      status: "answered",
      resolvedBy: { channel: "discord", userId: "42" },
      result: { status: "answered", answers: { answers: { deploy_target: ["Production"] } } },
    });
    const updated = await discord.waitUntil(() => {
      const message = discord.message(channelId, prompt.id);
      return message?.content.startsWith("✅") ? message : undefined;
    }, 5_000);
    expect(updated.content).toContain("✅ Deploy: Production");
    expect(updated.components ?? []).toEqual([]);
  }, 30_000);
});
