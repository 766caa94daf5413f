import { GrammyError, HttpError } from "grammy";
import { describe, expect, it } from "vitest";
import { ADA, botFor, fake, refusal, serveWebhook, startPolling } from "./harness.ts";

const TERMINATED =
  "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running";

describe("one getUpdates per token, as on Telegram", () => {
  it("ends a held getUpdates with 409 when a second one arrives on the same token", async () => {
    const tg = await fake();
    const first = botFor(tg).api.getUpdates({ timeout: 30 });
    await tg.waitFor((call) => call.method === "getUpdates");
    const second = botFor(tg).api.getUpdates({ timeout: 30 });

    const conflict = await refusal(first);
    expect(conflict.error_code).toBe(409);
    expect(conflict.description).toBe(TERMINATED);
    expect(await second).toEqual([]);
  });

  it("makes grammY's bot.start fail with 409 when a second bot starts polling on the same token", async () => {
    const tg = await fake();
    const first = botFor(tg);
    const stopped = new Promise<unknown>((resolve) => {
      first.start({ onStart: () => undefined }).then(resolve, resolve);
    });
    await tg.waitFor((call) => call.method === "getUpdates");
    await startPolling(botFor(tg));

    const error = await stopped;
    expect(error).toBeInstanceOf(GrammyError);
    expect((error as GrammyError).description).toBe(TERMINATED);
    expect(first.isRunning()).toBe(false);
  });

  it("refuses getUpdates with 409 while a webhook is set, and serves it again once deleted", async () => {
    const tg = await fake();
    const bot = botFor(tg);
    await bot.api.setWebhook(await serveWebhook(bot, "s3cret"), { secret_token: "s3cret" });
    const conflict = await refusal(bot.api.getUpdates({ timeout: 0 }));
    expect(conflict.error_code).toBe(409);
    expect(conflict.description).toMatch(/^Conflict: can't use getUpdates method while webhook is active/);
    await bot.api.deleteWebhook();
    expect(await bot.api.getUpdates({ timeout: 0 })).toEqual([]);
  });
});

describe("holding calls open (Telegram hanging mid-request)", () => {
  it("holds sendMessage until released, then carries it out even though its caller gave up", async () => {
    const tg = await fake();
    const bot = botFor(tg);
    const hold = tg.hold("sendMessage");
    const gaveUp = new AbortController();
    // grammY types its signal after a polyfill; Node's AbortSignal is what it gets at runtime.
    const signal = gaveUp.signal as Parameters<typeof bot.api.sendMessage>[3];
    const sent = bot.api.sendMessage(ADA.id, "held", undefined, signal);
    await tg.waitUntil(() => hold.calls.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(tg.messages(ADA.id)).toEqual([]);
    gaveUp.abort();
    await expect(sent).rejects.toBeInstanceOf(HttpError);

    hold.release();
    const [message] = await tg.waitUntil(() => tg.messages(ADA.id).length === 1 && tg.messages(ADA.id));
    expect(message?.text).toBe("held");
    expect((await bot.api.sendMessage(ADA.id, "not held")).message_id).toBe(2);
  });

  it("drops held calls: the caller sees a network failure and the chat is unchanged", async () => {
    const tg = await fake();
    const bot = botFor(tg);
    const message = await bot.api.sendMessage(ADA.id, "before");
    const hold = tg.hold("editMessageText");
    const edit = bot.api.editMessageText(ADA.id, message.message_id, "after");
    await tg.waitUntil(() => hold.calls.length === 1);
    expect(() => tg.hold("editMessageText")).toThrow(/already held/);

    hold.drop();
    await expect(edit).rejects.toBeInstanceOf(HttpError);
    expect(tg.message(ADA.id, message.message_id)?.text).toBe("before");
    expect(hold.calls.map((call) => call.params.text)).toEqual(["after"]);
    await bot.api.editMessageText(ADA.id, message.message_id, "after");
    expect(tg.message(ADA.id, message.message_id)?.text).toBe("after");
  });

  it("cuts calls still held when the fake closes", async () => {
    const tg = await fake();
    tg.hold("sendMessage");
    const sent = botFor(tg).api.sendMessage(ADA.id, "never");
    await tg.waitFor((call) => call.method === "sendMessage");
    await tg.close();
    await expect(sent).rejects.toBeInstanceOf(HttpError);
  });
});
