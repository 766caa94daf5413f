/**
 * A second connection holds the SQLite write lock for 10 s (another process writing, a backup, a long
 * migration): the gateway's writes wait for it on the store's writer thread, but a tap on Telegram,
 * Discord and Slack is still acknowledged within the platforms' 3 s — as the fakes record it — and every
 * answer is recorded once the lock is free: the `ask()` waiting over HTTP gets it.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFakeDiscord, type FakeDiscord } from "@ask-user/testkit/discord";
import { createFakeSlack, type FakeSlack } from "@ask-user/testkit/slack";
import { createFakeTelegram, type FakeTelegram } from "@ask-user/testkit/telegram";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, tempDir, testGateway } from "./harness.ts";

/** better-sqlite3 as @ask-user/sqlite loads it: the other connection. */
const Sqlite = createRequire(
  fileURLToPath(new URL("../../../packages/sqlite/package.json", import.meta.url)),
)("better-sqlite3") as new (
  path: string,
) => { exec(sql: string): void; close(): void };

const HOLD_MS = 10_000;
const ACK_MS = 3_000;

const fakes: Array<FakeTelegram | FakeDiscord | FakeSlack> = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function question(platform: string, target: string) {
  return {
    runId: platform,
    target,
    questions: [
      {
        id: "deploy_target",
        header: "Deploy",
        question: `Where should I deploy (${platform})?`,
        options: [{ label: "Staging (Recommended)", description: "Safe" }, { label: "Production" }],
      },
    ],
  };
}

/** `POST /v1/ask`: the result once someone answers (the request stays open meanwhile). */
async function ask(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${url}/v1/ask`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  return response.json();
}

describe("a write lock held by another connection", () => {
  it("leaves taps on Telegram, Discord and Slack acknowledged within 3 s, and records their answers once it is free", async () => {
    const tg = await createFakeTelegram();
    const discord = await createFakeDiscord();
    const slack = await createFakeSlack();
    fakes.push(tg, discord, slack);
    const db = join(tempDir(), "ask-user.db");
    const gw = await testGateway({
      ASK_USER_DB: db,
      ASK_USER_ANSWERERS: "conversation",
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.apiRoot,
      DISCORD_BOT_TOKEN: discord.token,
      DISCORD_API_URL: discord.apiUrl,
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_APP_TOKEN: slack.appToken,
      SLACK_API_URL: slack.apiUrl,
    });
    const ada = tg.user({ id: 42, first_name: "Ada", username: "ada", language_code: "en" });
    const bob = discord.user({ id: "43", username: "bob" });
    const alice = slack.user({ id: "U0ALICE", name: "alice" });
    const channel = discord.guild.channelId;
    const asks = [
      ask(gw.url, question("telegram", `telegram:${ada.id}`)),
      ask(gw.url, question("discord", `discord:${channel}`)),
      ask(gw.url, question("slack", "slack:C0GENERAL")),
    ];
    const tgPrompt = await tg.waitUntil(
      () => tg.messages(ada.id).find((m) => m.text.includes("(telegram)")),
      10_000,
    );
    const dcPrompt = await discord.waitUntil(
      () => discord.messages(channel).find((m) => m.content.includes("(discord)")),
      10_000,
    );
    const slPrompt = await slack.waitUntil(
      () => slack.messages("C0GENERAL").find((m) => m.text.includes("(slack)")),
      10_000,
    );
    // Each delivery is in the store (a tap is looked up by its message) before anyone taps.
    await vi.waitFor(
      async () => {
        for (const platform of ["telegram", "discord", "slack"]) {
          const listed = await call(`${gw.url}/v1/questions?runId=${platform}`, "GET");
          expect(listed.body.questions[0]?.deliveries?.length, platform).toBe(1);
        }
      },
      { timeout: 10_000, interval: 50 },
    );

    const holder = new Sqlite(db);
    holder.exec("BEGIN IMMEDIATE");
    holder.exec("INSERT INTO seen_keys (key, expires_at) VALUES ('held by the lock test', 0)");
    const heldAt = Date.now();
    try {
      const tappedAt = Date.now();
      const query = ada.press(ada.id, tgPrompt.message_id, "Production");
      const click = bob.click(channel, dcPrompt.id, "Production");
      const [, , slackTap] = await Promise.all([
        ada.waitForAnswer(query, HOLD_MS).catch(() => undefined),
        discord.waitForResponse(click, HOLD_MS).catch(() => undefined),
        alice.press("C0GENERAL", slPrompt.ts, "Production"),
      ]);
      const tgAck = tg.calls.find(
        (c) => c.method === "answerCallbackQuery" && c.params.callback_query_id === query,
      );
      const dcAck = discord.calls.find(
        (c) => c.route === "createInteractionResponse" && c.path.includes(`/interactions/${click.id}/`),
      );
      const acks = {
        telegram: tgAck ? tgAck.at - tappedAt : "none",
        discord: dcAck && dcAck.error === undefined ? dcAck.at - tappedAt : (dcAck?.error ?? "none"),
        slack:
          slackTap.status === 200
            ? (slack.deliveries.find((d) => d.type === "block_actions")?.ms ?? "none")
            : `status ${slackTap.status}`,
      };
      console.log(`acknowledged after (ms), the lock held: ${JSON.stringify(acks)}`);
      for (const [platform, ms] of Object.entries(acks)) {
        expect(typeof ms === "number" && ms <= ACK_MS, `${platform} acknowledged after ${ms} ms`).toBe(true);
      }
      // Still held: nothing is recorded yet.
      expect(Date.now() - heldAt).toBeLessThan(HOLD_MS);
      const pending = await call(`${gw.url}/v1/questions?status=pending`, "GET");
      expect(pending.body.questions).toHaveLength(3);
      await sleep(HOLD_MS - (Date.now() - heldAt));
    } finally {
      holder.exec("COMMIT");
      holder.close();
    }

    const answered = { status: "answered", answers: { answers: { deploy_target: ["Production"] } } };
    expect(await Promise.all(asks)).toEqual([answered, answered, answered]);
  }, 60_000);
});
