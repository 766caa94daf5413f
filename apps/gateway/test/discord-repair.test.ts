/**
 * Repair after a crash on Discord (SPEC §4): a real gateway process is killed (kill -9) while the fake
 * Discord holds its request open — the prompt being posted, or the summary edit — and a new process on
 * the same database finishes the job: one prompt in the channel, answerable by a tap; the summary edited.
 */
import { join } from "node:path";
import { createFakeDiscord, type FakeDiscord } from "@ask-user/testkit/discord";
import { afterEach, describe, expect, it, vi } from "vitest";
import { gatewayProcesses } from "./gateway-process.ts";
import { call, deployInput, tempDir } from "./harness.ts";

const { start: startChild, kill9 } = gatewayProcesses();
const fakes: FakeDiscord[] = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});

async function world() {
  const discord = await createFakeDiscord();
  fakes.push(discord);
  const env = {
    ASK_USER_DB: join(tempDir(), "gw.db"),
    ASK_USER_ANSWERERS: "conversation", // a shared channel, no creator
    DISCORD_BOT_TOKEN: discord.token,
    DISCORD_API_URL: discord.apiUrl,
  };
  const channelId = discord.guild.channelId;
  const prompts = () =>
    discord.messages(channelId).filter((m) => m.content.includes("Where should I deploy?"));
  return { discord, env, channelId, prompts };
}

/**
 * Waits for the restarted process's gateway connection: the dead one's lease runs out first (about 6 s),
 * so taps before that would reach nobody.
 */
async function reconnected(discord: FakeDiscord): Promise<void> {
  await discord.waitUntil(() => discord.sessions().some((s) => s.connected), 15_000);
}

/** The pending question, once the restarted process has recorded its delivery. */
async function recorded(url: string) {
  return vi.waitFor(
    async () => {
      const [pending] = (await call(`${url}/v1/questions?status=pending`, "GET")).body.questions;
      expect(pending?.deliveries).toHaveLength(1);
      return pending;
    },
    { timeout: 10_000, interval: 100 },
  );
}

/** Asks over HTTP; the call dies with the process, so its outcome is not awaited. */
function ask(url: string, channelId: string): void {
  call(`${url}/v1/questions`, "POST", { ...deployInput, target: `discord:${channelId}` }).catch(
    () => undefined,
  );
}

describe("repair after a crash, on Discord", () => {
  it("delivers a prompt whose send never reached Discord, from the restarted process; a tap answers it", async () => {
    const { discord, env, channelId, prompts } = await world();
    const first = await startChild(env);
    const held = discord.hold("createMessage");
    ask(first.url, channelId);
    await discord.waitUntil(() => held.calls.length === 1, 10_000);
    await kill9(first.child);
    held.drop();
    expect(prompts()).toEqual([]);

    const second = await startChild(env);
    const prompt = await discord.waitUntil(() => prompts()[0], 10_000);
    const question = await recorded(second.url);
    expect(question.deliveries).toEqual([expect.objectContaining({ messageId: prompt.id, kind: "prompt" })]);

    await reconnected(discord);
    const tap = discord.user({ id: "42", username: "ada" }).click(channelId, prompt.id, "Production");
    expect(await discord.waitForResponse(tap)).toMatchObject({ type: 7 });
    const answered = await call(`${second.url}/v1/questions/${question.id}`, "GET");
    expect(answered.body.result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a later sweep finds nothing to do
    const fromBot = discord.messages(channelId).filter((m) => m.author.id === discord.bot.id);
    expect(fromBot.map((m) => m.id)).toEqual([prompt.id]);
    expect(fromBot[0]?.content).toMatch(/^✅ Deploy: Production — /);
  }, 60_000);

  it("posts no second prompt when the cut-off send did reach Discord: the repair gets the same message", async () => {
    const { discord, env, channelId, prompts } = await world();
    const first = await startChild(env);
    const held = discord.hold("createMessage");
    ask(first.url, channelId);
    await discord.waitUntil(() => held.calls.length === 1, 10_000);
    await kill9(first.child);
    held.release(); // Discord posts it; the dead process never learns its id
    const posted = await discord.waitUntil(() => prompts()[0]);

    const second = await startChild(env);
    const question = await recorded(second.url);
    expect(question.deliveries).toEqual([expect.objectContaining({ messageId: posted.id, kind: "prompt" })]);
    expect(discord.calls.filter((c) => c.route === "createMessage")).toHaveLength(2); // it did send again
    expect(prompts()).toHaveLength(1);

    await reconnected(discord);
    const tap = discord
      .user({ id: "42", username: "ada" })
      .click(channelId, posted.id, "Staging (Recommended)");
    expect(await discord.waitForResponse(tap)).toMatchObject({ type: 7 });
    expect(discord.message(channelId, posted.id)?.content).toMatch(/^✅ Deploy: Staging \(Recommended\)/);
  }, 60_000);

  it("edits the summary that a crash cut off, from the restarted process", async () => {
    const { discord, env, channelId, prompts } = await world();
    const first = await startChild(env);
    ask(first.url, channelId);
    const prompt = await discord.waitUntil(() => prompts()[0], 10_000);
    const question = await recorded(first.url);
    const held = discord.hold("editMessage");
    call(`${first.url}/v1/questions/${question.id}/answer`, "POST", {
      answers: { deploy_target: ["Production"] },
    }).catch(() => undefined);
    await discord.waitUntil(() => held.calls.length === 1, 10_000);
    await kill9(first.child);
    held.drop();
    expect(discord.message(channelId, prompt.id)?.content).toContain("Where should I deploy?");

    await startChild(env);
    const edited = await discord.waitUntil(() => {
      const message = discord.message(channelId, prompt.id);
      return message?.content.startsWith("✅") ? message : undefined;
    }, 10_000);
    expect(edited.content).toMatch(/^✅ Deploy: Production — .+ via HTTP API$/);
    expect(edited.components).toEqual([]);
  }, 60_000);
});
