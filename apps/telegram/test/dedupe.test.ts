import { createMemoryStore } from "@ask-user/core";
import type { Coordination } from "@ask-user/core/channel";
import { describe, expect, it } from "vitest";
import { ADA, botMessages, DEPLOY, fake, type Running, SECRET, start, visible } from "./harness.ts";

const RELEASE = {
  questions: [
    ...DEPLOY.questions,
    {
      id: "notify",
      header: "Notify",
      question: "Tell whom?",
      options: [{ label: "Team" }, { label: "Nobody" }],
    },
  ],
};

/** The bot's notices in a chat, first sentence each, as the person reads them. */
function notices(running: Running, chatId: number): Array<string | undefined> {
  return botMessages(running.tg, chatId)
    .slice(1)
    .map((m) => visible(m.text)?.split(".")[0]);
}

/** Error lines the test expected, taken out so that the harness's "no error lines" check passes. */
function takeErrors(running: Running): string[] {
  const errors = running.logger.lines.filter((line) => line.startsWith("error"));
  running.logger.lines.splice(0);
  return errors;
}

describe("each update handled once across instances that share a store", () => {
  it("drops an update a sibling instance already handled, when Telegram delivers it there again", async () => {
    const tg = await fake();
    const store = createMemoryStore();
    const a = await start("webhook", { tg, store, coordination: store });
    const b = await start("webhook", { tg, store, coordination: store }); // the webhook now points at b
    const ada = tg.user(ADA);
    const prompt = await b.broker.create(RELEASE, {
      target: { channel: "telegram", conversation: String(ADA.id) },
    });
    const reply = ada.sendText(ADA.id, "1: Production");
    await tg.waitUntil(() => botMessages(tg, ADA.id).length === 2 && tg.deliveries.length === 1);
    const updateId = tg.deliveries[0]?.update_id ?? -1;

    await a.bot.api.setWebhook(a.webhookUrl ?? "", { secret_token: SECRET });
    tg.redeliver(updateId);
    await tg.waitUntil(() => tg.deliveries.length === 2);
    expect(tg.deliveries.map((d) => [d.update_id, d.status])).toEqual([
      [updateId, 200],
      [updateId, 200],
    ]);
    expect(a.logger.lines).toEqual([expect.stringContaining("warn dropped an update delivered twice")]);
    a.logger.lines.splice(0);
    expect(notices(b, ADA.id)).toEqual(["Recorded: Deploy: Production"]);
    expect(reply.message_id).toBeGreaterThan(0);
    expect((await b.broker.get(prompt.id))?.draft).toEqual({ deploy_target: ["Production"] });
  });

  it("runs an update on another instance when the one that took it died mid-way, and then never again", async () => {
    const tg = await fake();
    const store = createMemoryStore();
    let revive: () => void = () => undefined;
    const dead = new Promise<void>((resolve) => {
      revive = resolve;
    });
    const handled: string[] = [];
    const a = await start("manual", {
      tg,
      store,
      coordination: store,
      after: (bot) => bot.on("message:text", () => dead), // never gets past this: the process is gone
    });
    const b = await start("manual", {
      tg,
      store,
      coordination: store,
      after: (bot) =>
        bot.on("message:text", (ctx) => {
          handled.push(ctx.message.text);
        }),
    });
    tg.user(ADA).sendText(ADA.id, "hello host");
    const [update] = await a.bot.api.getUpdates({ timeout: 0 });
    if (!update) throw new Error("no update");
    const stuck = a.bot.handleUpdate(update);
    await new Promise((resolve) => setTimeout(resolve, 20));

    await b.bot.handleUpdate(update); // Telegram redelivers what the dead instance never answered
    expect(handled).toEqual(["hello host"]);
    await b.bot.handleUpdate(update);
    expect(handled).toEqual(["hello host"]);
    expect(b.logger.lines).toEqual([expect.stringContaining("warn dropped an update delivered twice")]);
    b.logger.lines.splice(0);
    revive();
    await stuck;
  });

  it("runs an update again when its handler failed and Telegram redelivers it (webhook non-2xx)", async () => {
    const store = createMemoryStore();
    const tries: string[] = [];
    const running = await start("webhook", {
      store,
      coordination: store,
      after: (bot) =>
        bot.on("message:text", async (ctx) => {
          tries.push(ctx.message.text);
          if (tries.length === 1) throw new Error("the host's handler failed once");
          await ctx.reply("host: done");
        }),
    });
    running.tg.user(ADA).sendText(ADA.id, "hello host");

    await running.tg.waitUntil(
      () => botMessages(running.tg, ADA.id).length === 1 && running.tg.deliveries.length === 2,
    );
    expect(running.tg.deliveries.map((d) => d.status)).toEqual([500, 200]);
    expect(tries).toEqual(["hello host", "hello host"]);
    expect(takeErrors(running)).toEqual([expect.stringContaining("the host's handler failed once")]);
  });

  it("gives an update that keeps failing a bounded number of tries, then drops its redeliveries", async () => {
    const store = createMemoryStore();
    let tries = 0;
    const running = await start("webhook", {
      store,
      coordination: store,
      after: (bot) =>
        bot.on("message:text", () => {
          tries++;
          throw new Error("the host's handler always fails");
        }),
    });
    const tg = running.tg;
    tg.user(ADA).sendText(ADA.id, "hello host");
    await tg.waitUntil(() => tg.dropped.length === 1);
    expect(tg.deliveries.map((d) => d.status)).toEqual([500, 500, 500]);

    tg.redeliver(tg.deliveries[0]?.update_id ?? -1);
    await tg.waitUntil(() => tg.deliveries.length === 4);
    expect(tg.deliveries.at(-1)?.status).toBe(200);
    expect(tries).toBe(3);
    expect(takeErrors(running)).toHaveLength(3);
  });

  it("handles updates when the shared store cannot be reached, with a warning", async () => {
    const store = createMemoryStore();
    const unreachable: Coordination = {
      firstSeen: () => Promise.reject(new Error("ECONNREFUSED")),
      acquireLease: () => Promise.reject(new Error("ECONNREFUSED")),
      releaseLease: () => Promise.reject(new Error("ECONNREFUSED")),
    };
    const running = await start("polling", { store, coordination: unreachable });
    const prompt = await running.broker.create(DEPLOY, {
      target: { channel: "telegram", conversation: String(ADA.id) },
    });
    const ada = running.tg.user(ADA);
    const query = ada.press(ADA.id, Number(prompt.deliveries[0]?.messageId), "Canary");
    expect(await ada.waitForAnswer(query)).toMatchObject({ text: "Recorded: Canary" });
    expect(running.logger.lines).toEqual([
      expect.stringContaining("warn could not check whether this was handled already; handling it"),
    ]);
    running.logger.lines.splice(0);
  });
});
