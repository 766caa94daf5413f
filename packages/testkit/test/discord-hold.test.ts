import { DiscordAPIError, Routes } from "discord.js";
import { describe, expect, it } from "vitest";
import { connect, fake } from "./discord-harness.ts";

// Discord hanging mid-request (hold) and message nonces, through the real discord.js REST client.

describe("holding a route open", () => {
  it("keeps a message unposted until released, then posts and answers it", async () => {
    const discord = await fake();
    const client = await connect(discord);
    const channelId = discord.guild.channelId;
    const held = discord.hold("createMessage");

    const sending = client.rest.post(Routes.channelMessages(channelId), { body: { content: "held" } });
    await discord.waitUntil(() => held.calls.length === 1);
    expect(discord.messages(channelId)).toEqual([]);
    expect(held.calls[0]).toMatchObject({ route: "createMessage", status: 0, body: { content: "held" } });

    held.release();
    const sent = (await sending) as { id: string; content: string };
    expect(sent.content).toBe("held");
    expect(discord.messages(channelId).map((m) => m.content)).toEqual(["held"]);
    expect(held.calls[0]?.status).toBe(200);
    // Released: later calls go through at once.
    await client.rest.post(Routes.channelMessages(channelId), { body: { content: "next" } });
    expect(discord.messages(channelId)).toHaveLength(2);
  });

  it("carries a released call out even when its caller has gone away", async () => {
    const discord = await fake();
    const channelId = discord.guild.channelId;
    const held = discord.hold("createMessage");
    const abort = new AbortController();
    const sending = fetch(`${discord.apiUrl}/v10/channels/${channelId}/messages`, {
      method: "POST",
      headers: { authorization: `Bot ${discord.token}`, "content-type": "application/json" },
      body: JSON.stringify({ content: "sent before the crash" }),
      signal: abort.signal,
    });
    await discord.waitUntil(() => held.calls.length === 1);
    abort.abort();
    await expect(sending).rejects.toThrow();

    held.release();
    expect(discord.messages(channelId).map((m) => m.content)).toEqual(["sent before the crash"]);
  });

  it("drops held edits: the caller sees a network failure and the message is unchanged", async () => {
    const discord = await fake();
    const client = await connect(discord, { rest: { api: discord.apiUrl, retries: 0 } });
    const channelId = discord.guild.channelId;
    const message = (await client.rest.post(Routes.channelMessages(channelId), {
      body: { content: "before" },
    })) as { id: string };
    const held = discord.hold("editMessage");

    const editing = client.rest.patch(Routes.channelMessage(channelId, message.id), {
      body: { content: "after" },
    });
    await discord.waitUntil(() => held.calls.length === 1);
    held.drop();

    await expect(editing).rejects.not.toBeInstanceOf(DiscordAPIError);
    expect(discord.message(channelId, message.id)?.content).toBe("before");
    expect(() => discord.hold("editMessage")).not.toThrow(); // the route can be held again
  });
});

describe("message nonces", () => {
  it("returns the earlier message for a repeated nonce with enforce_nonce, and posts again without it", async () => {
    const discord = await fake();
    const client = await connect(discord);
    const channelId = discord.guild.channelId;
    const post = (body: Record<string, unknown>) =>
      client.rest.post(Routes.channelMessages(channelId), { body }) as Promise<{
        id: string;
        nonce?: string;
      }>;

    const first = await post({ content: "prompt", nonce: "q-1", enforce_nonce: true });
    const again = await post({ content: "prompt", nonce: "q-1", enforce_nonce: true });
    const other = await post({ content: "prompt", nonce: "q-2", enforce_nonce: true });
    const unenforced = await post({ content: "prompt", nonce: "q-1" });

    expect(first.nonce).toBe("q-1");
    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
    expect(unenforced.id).not.toBe(first.id);
    expect(discord.messages(channelId)).toHaveLength(3);
  });

  it("forgets a nonce after the window", async () => {
    let now = Date.now();
    const discord = await fake({ now: () => now });
    const client = await connect(discord);
    const channelId = discord.guild.channelId;
    const body = { content: "prompt", nonce: "q-1", enforce_nonce: true };
    const first = (await client.rest.post(Routes.channelMessages(channelId), { body })) as { id: string };
    now += 3 * 60 * 1000;
    const later = (await client.rest.post(Routes.channelMessages(channelId), { body })) as { id: string };
    expect(later.id).not.toBe(first.id);
  });

  it("refuses a nonce longer than 25 characters", async () => {
    const discord = await fake();
    const client = await connect(discord);
    const sending = client.rest.post(Routes.channelMessages(discord.guild.channelId), {
      body: { content: "x", nonce: "n".repeat(26) },
    });
    await expect(sending).rejects.toMatchObject({ code: 50035 });
    await expect(sending).rejects.toThrow(/nonce/);
  });
});
