/**
 * Two gateway instances over one Redis with Discord (SPEC §9): one gateway connection between them, a
 * prompt asked on either is delivered, and a tap is answered once and wakes the ask on the other.
 */
import { createFakeDiscord, type FakeDiscord } from "@ask-user/testkit/discord";
import { type RedisServer, startRedisServer } from "@ask-user/testkit/redis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";

let redis: (RedisServer & { stop(): Promise<void> }) | undefined;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});
const fakes: FakeDiscord[] = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});

describe("two gateway instances with Discord over one Redis", () => {
  it("keep one gateway connection; a prompt from the REST-only instance is answered by one tap", async () => {
    const discord = await createFakeDiscord();
    fakes.push(discord);
    const env = {
      ASK_USER_REDIS_URL: redis?.url ?? "",
      ASK_USER_ANSWERERS: "conversation", // a shared channel, no creator
      DISCORD_BOT_TOKEN: discord.token,
      DISCORD_API_URL: discord.apiUrl,
    };
    const a = await testGateway(env);
    const b = await testGateway(env);
    const banners = [...a.channels, ...b.channels].map((c) => c.describe);
    expect(banners).toEqual([
      "discord (@ask_user_bot, gateway)",
      "discord (@ask_user_bot, REST; another instance holds the gateway)",
    ]);

    const channelId = discord.guild.channelId;
    const asking = call(`${b.url}/v1/ask`, "POST", { ...deployInput, target: `discord:${channelId}` });
    const prompt = await discord.waitUntil(() => discord.messages(channelId)[0], 10_000);
    const tap = discord.user({ id: "42", username: "ada" }).click(channelId, prompt.id, "Production");

    expect(await asking).toEqual({
      status: 200,
      body: { status: "answered", answers: { answers: { deploy_target: ["Production"] } } },
    });
    expect(await discord.waitForResponse(tap)).toMatchObject({ type: 7 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(discord.sessions().filter((s) => s.connected)).toHaveLength(1);
    expect(discord.calls.filter((c) => c.error?.code === 40060)).toEqual([]);
    expect(discord.messages(channelId)).toHaveLength(1);
  }, 30_000);
});
