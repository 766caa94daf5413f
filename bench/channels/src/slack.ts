/**
 * Slack in Socket Mode: the product (`@ask-user/slack/plugin`) and a bare Bolt `App`, each on its own
 * fake Slack, the person pressing a button in a channel. Both receive the press as an `interactive`
 * envelope on their Socket Mode connection. The fakes do not echo the apps' own posts back (Slack does):
 * those events would land on the connection at the same moment as the tap, on one side only.
 */
import { join } from "node:path";
import { channelPlugin } from "@ask-user/slack/plugin";
import { createFakeSlack, type FakeSlack } from "@ask-user/testkit/slack";
import { App, LogLevel } from "@slack/bolt";
import { DEPLOY, startProduct, TAPPED } from "./product.ts";
import type { Platform, Round, Side } from "./side.ts";
import { openTapLog } from "./tap-log.ts";

const CHANNEL = "C0GENERAL";
const ALICE = { id: "U0ALICE", name: "alice", display_name: "alice" };

/** The press's round: settled once the app acknowledged it and its work is done. */
function round(slack: FakeSlack, ts: string, resolved: Promise<number>, idle: () => Promise<void>) {
  const alice = slack.user(ALICE);
  let pressed: Promise<unknown> = Promise.resolve();
  const pressRound: Round = {
    tap() {
      pressed = alice.press(CHANNEL, ts, TAPPED);
    },
    resolved,
    async settle() {
      await pressed;
      await idle();
    },
  };
  return pressRound;
}

async function productSide(dir: string): Promise<Side> {
  const slack = await createFakeSlack({ echoBotMessages: false });
  const product = await startProduct(
    channelPlugin,
    { SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl },
    join(dir, "slack.db"),
  );
  const target = { channel: "slack", conversation: CHANNEL };
  const creator = { channel: "slack", userId: ALICE.id, displayName: "@alice" };
  return {
    async next() {
      const asked = product.ask({ target, creator });
      const record = await asked.delivered;
      return round(slack, record.deliveries[0]?.messageId ?? "", asked.resolved, () => product.broker.idle());
    },
    spans: product.spans,
    commits: () => product.store.stats(),
    async close() {
      await product.close();
      await slack.waitUntil(() => slack.socketConnections() === 0);
      await slack.close();
    },
  };
}

async function bareSide(dir: string): Promise<Side> {
  const slack = await createFakeSlack({ echoBotMessages: false });
  const log = openTapLog(join(dir, "slack-bare.db"));
  const app = new App({
    token: slack.botToken,
    appToken: slack.appToken,
    socketMode: true,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } },
  });
  const failures: unknown[] = [];
  app.error(async (error) => {
    failures.push(error);
  });
  let tapped: (() => void) | undefined;
  app.action({ type: "block_actions", action_id: /^deploy:/ }, async ({ ack, body, action }) => {
    log.record(`${body.container.message_ts}:${body.user.id}`, body.user.id, action.action_id);
    tapped?.();
    await ack();
  });
  await app.start();
  const [question] = DEPLOY.questions;
  const labels = [...(question?.options ?? []).map((o) => o.label), "Other…", "Skip"];
  const blocks = [
    { type: "section", text: { type: "mrkdwn", text: `*${question?.header}*\n${question?.question}` } },
    {
      type: "actions",
      elements: labels.map((label, i) => ({
        type: "button",
        text: { type: "plain_text", text: label },
        action_id: `deploy:${i}`,
        value: String(i),
      })),
    },
  ];
  let taps = 0;
  return {
    async next() {
      const posted = await app.client.chat.postMessage({ channel: CHANNEL, text: "Deploy", blocks });
      const resolved = new Promise<void>((resolve) => {
        tapped = resolve;
      }).then(() => performance.now());
      taps++;
      return round(slack, posted.ts ?? "", resolved, async () => undefined);
    },
    spans: log.spans,
    commits() {
      const written = log.count();
      return { writes: written, transactions: written };
    },
    async close() {
      await app.stop();
      await slack.waitUntil(() => slack.socketConnections() === 0);
      await slack.close();
      const logged = log.count();
      log.close();
      if (failures.length > 0) throw new Error(`the bare app failed: ${String(failures[0])}`);
      if (logged !== taps) throw new Error(`the bare app wrote ${logged} taps of ${taps}`);
    },
  };
}

/** Both Slack sides, each on its own fake; the SQLite files go to `dir`. */
export async function slack(dir: string): Promise<Platform> {
  return {
    title: "Slack (Socket Mode)",
    sdk: "Bolt App",
    product: await productSide(dir),
    bare: await bareSide(dir),
  };
}
