/**
 * Discord over the gateway connection: the product (`@ask-user/discord/plugin`) and a bare discord.js
 * `Client`, each on its own fake Discord, the person clicking in a guild text channel. Both receive the
 * click as INTERACTION_CREATE on their WebSocket.
 */
import { join } from "node:path";
import { channelPlugin } from "@ask-user/discord/plugin";
import { createFakeDiscord, type FakeDiscord } from "@ask-user/testkit/discord";
import { Client, Events, GatewayIntentBits, Routes } from "discord.js";
import { DEPLOY, startProduct, TAPPED } from "./product.ts";
import type { Platform, Round, Side } from "./side.ts";
import { openTapLog } from "./tap-log.ts";

const ALICE = { id: "200000000000000001", username: "alice" };

/** The click's round: settled once the bot's interaction response is in and its work is done. */
function round(
  discord: FakeDiscord,
  messageId: string,
  resolved: Promise<number>,
  idle: () => Promise<void>,
) {
  const alice = discord.user(ALICE);
  let click: ReturnType<typeof alice.click> | undefined;
  const clickRound: Round = {
    tap() {
      click = alice.click(discord.guild.channelId, messageId, TAPPED);
    },
    resolved,
    async settle() {
      if (click) await discord.waitForResponse(click);
      await idle();
    },
  };
  return clickRound;
}

async function productSide(dir: string): Promise<Side> {
  const discord = await createFakeDiscord();
  const product = await startProduct(
    channelPlugin,
    { DISCORD_BOT_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl },
    join(dir, "discord.db"),
  );
  const target = { channel: "discord", conversation: discord.guild.channelId };
  const creator = { channel: "discord", userId: ALICE.id, displayName: "alice" };
  return {
    async next() {
      const asked = product.ask({ target, creator });
      const record = await asked.delivered;
      return round(discord, record.deliveries[0]?.messageId ?? "", asked.resolved, () =>
        product.broker.idle(),
      );
    },
    spans: product.spans,
    commits: () => product.store.stats(),
    async close() {
      await product.close();
      await discord.close();
    },
  };
}

async function bareSide(dir: string): Promise<Side> {
  const discord = await createFakeDiscord();
  const log = openTapLog(join(dir, "discord-bare.db"));
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: discord.apiUrl } });
  const failures: unknown[] = [];
  let tapped: (() => void) | undefined;
  client.on(Events.InteractionCreate, (interaction) => {
    if (!interaction.isButton()) return;
    log.record(interaction.id, interaction.user.id, interaction.customId);
    tapped?.();
    interaction.deferUpdate().catch((error: unknown) => failures.push(error));
  });
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(discord.token);
  await ready;
  const [question] = DEPLOY.questions;
  const labels = [...(question?.options ?? []).map((o) => o.label), "Other…", "Skip"];
  const body = {
    content: `**${question?.header}**\n${question?.question}`,
    components: [
      {
        type: 1,
        components: labels.map((label, i) => ({ type: 2, style: 2, label, custom_id: `deploy:${i}` })),
      },
    ],
    allowed_mentions: { parse: [] },
  };
  let taps = 0;
  return {
    async next() {
      const sent = (await client.rest.post(Routes.channelMessages(discord.guild.channelId), { body })) as {
        id: string;
      };
      const resolved = new Promise<void>((resolve) => {
        tapped = resolve;
      }).then(() => performance.now());
      taps++;
      return round(discord, sent.id, resolved, async () => undefined);
    },
    spans: log.spans,
    commits() {
      const written = log.count();
      return { writes: written, transactions: written };
    },
    async close() {
      await client.destroy();
      await discord.close();
      const logged = log.count();
      log.close();
      if (failures.length > 0) throw new Error(`the bare client failed: ${String(failures[0])}`);
      if (logged !== taps) throw new Error(`the bare client wrote ${logged} taps of ${taps}`);
    },
  };
}

/** Both Discord sides, each on its own fake; the SQLite files go to `dir`. */
export async function discord(dir: string): Promise<Platform> {
  return {
    title: "Discord (gateway connection)",
    sdk: "discord.js Client",
    product: await productSide(dir),
    bare: await bareSide(dir),
  };
}
