/**
 * Several instances (SPEC §9): two plugin instances (as two gateways run them) on one shared store, in Socket Mode (each with
 * its own connection; Slack hands each envelope to one) and in HTTP mode (two servers behind a load
 * balancer). A request delivered twice — an event Slack redelivers because the ack was lost, a copy of
 * an interaction — is handled once, whichever instance it reaches.
 */
import { createAskUser, createMemoryStore, type QuestionStore } from "@ask-user/core";
import type { QuestionRecord } from "@ask-user/core/channel";
import type { Delivery, FakeSlack } from "@ask-user/testkit/slack";
import { afterEach, describe, expect, it } from "vitest";
import { channelPlugin } from "../src/index.ts";
import { ACK_DEADLINE_MS } from "../src/limits.ts";
import {
  ALICE,
  CHANNEL,
  DEPLOY,
  fakeSlack,
  MODES,
  type Mode,
  recordingLogger,
  waitForConfirmation,
} from "./harness.ts";
import { serveHandler } from "./serve.ts";

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** One instance: its own Bolt app (connection, or webhook served on its own port) and broker, on the shared store. */
async function instance(slack: FakeSlack, mode: Mode, store: QuestionStore, name: string) {
  const logger = { ...recordingLogger(), info: () => undefined };
  const env: Record<string, string> =
    mode === "socket"
      ? { SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl }
      : {
          SLACK_BOT_TOKEN: slack.botToken,
          SLACK_SIGNING_SECRET: slack.signingSecret,
          SLACK_API_URL: slack.apiUrl,
        };
  const config = channelPlugin.readConfig(env);
  const running = await channelPlugin.create({ config, logger, coordination: store, instanceId: name });
  const broker = createAskUser({ store, channels: [running], logger, instanceId: name });
  // Two processes, each serving its webhook on its own port, behind one load balancer.
  const { handleWebhook, listen } = running;
  const server = handleWebhook && listen ? await serveHandler(handleWebhook, listen.paths) : undefined;
  await running.start(broker);
  stops.push(async () => {
    await broker.idle();
    await broker.close();
    await running.stop();
    await server?.close();
  });
  return { broker, logger, url: server?.url ?? "" };
}

/** A fake Slack and two instances on one store; in HTTP mode the fake balances between them. */
async function twoInstances(mode: Mode) {
  const slack = await fakeSlack({ eventRetryDelaysMs: [0] });
  const store = createMemoryStore();
  stops.push(async () => {
    if (mode === "socket") await slack.waitUntil(() => slack.socketConnections() === 0); // once both stopped
  });
  const a = await instance(slack, mode, store, "a");
  const b = await instance(slack, mode, store, "b");
  if (mode === "http") slack.setRequestUrl([a.url, b.url]);
  else expect(slack.socketConnections()).toBe(2); // each instance opens its own
  return { slack, a, b, alice: slack.user(ALICE) };
}

/** Asks through instance `a`; waits until Slack echoed the prompt back (so nothing else is in flight). */
async function ask(w: Awaited<ReturnType<typeof twoInstances>>) {
  const record: QuestionRecord = await w.a.broker.create(DEPLOY, {
    target: { channel: "slack", conversation: CHANNEL },
    creator: { channel: "slack", userId: ALICE.id, displayName: "@alice" },
  });
  const ts = record.deliveries[0]?.messageId ?? "";
  await w.slack.waitUntil(() =>
    w.slack.deliveries.find((d) => (d.request.event as { ts?: string } | undefined)?.ts === ts),
  );
  return { record, ts, result: w.b.broker.wait(record.id) };
}

/** Where a delivery went: the instance's URL or connection. */
const placeOf = (delivery: Delivery) => delivery.url ?? delivery.connection;

/** Hands a copy of a request to the app until one reaches another instance than `original` did. */
async function copyToTheOther(slack: FakeSlack, original: Delivery): Promise<Delivery> {
  for (let i = 0; i < 4; i++) {
    const copy = await slack.deliver(original.request);
    expect(copy.status).toBe(200);
    if (placeOf(copy) !== placeOf(original)) return copy;
  }
  throw new Error("no copy reached the other instance");
}

/** What every instance must hold to: each delivery acked in time, nothing logged as an error or warning. */
function expectCleanRun(w: Awaited<ReturnType<typeof twoInstances>>) {
  for (const delivery of w.slack.deliveries) {
    expect(delivery.status, `${delivery.type} ${delivery.error ?? ""}`).toBe(200);
    expect(delivery.ms).toBeLessThan(ACK_DEADLINE_MS);
  }
  expect(new Set(w.slack.deliveries.map(placeOf)).size).toBe(2); // both instances took requests
  expect([...w.a.logger.lines, ...w.b.logger.lines]).toEqual([]);
}

/** Gives a duplicate time to show (a second notice, a refusal) before asserting there is none. */
async function settle(w: Awaited<ReturnType<typeof twoInstances>>) {
  await new Promise((resolve) => setTimeout(resolve, 300));
  await Promise.all([w.a.broker.idle(), w.b.broker.idle()]);
}

const summaryEdits = (slack: FakeSlack, ts: string) =>
  slack.calls.filter((c) => c.method === "chat.update" && c.params.ts === ts);

describe.each(MODES)("two instances over %s on one store", (mode) => {
  it("a tap is handled once; a copy of it on the other instance is acked and changes nothing", async () => {
    const w = await twoInstances(mode);
    const { ts, result } = await ask(w);
    const tap = await w.alice.press(CHANNEL, ts, "Production");
    expect(await result).toEqual({ status: "answered", answers: { answers: { env: ["Production"] } } });
    await w.slack.waitUntil(() => w.slack.message(CHANNEL, ts)?.edits === 1);

    await copyToTheOther(w.slack, tap);
    await settle(w);
    expect(w.slack.message(CHANNEL, ts)?.text).toBe("✅ Deploy: Production — @alice");
    expect(summaryEdits(w.slack, ts)).toHaveLength(1);
    expect(w.slack.ephemerals).toEqual([]); // no "already answered" for the person
    expect(w.slack.deliveries.filter((d) => d.type === "block_actions")).toHaveLength(2);
    expectCleanRun(w);
  });

  it("a thread reply whose ack was lost comes again to the other instance and is handled once", async () => {
    const w = await twoInstances(mode);
    const { ts, result } = await ask(w);
    w.slack.loseNextAck();
    const sent = await w.alice.say(CHANNEL, "2", { threadTs: ts });
    expect(sent.delivery.lost).toBe(true);
    const again = await w.slack.waitUntil(() => w.slack.deliveries.find((d) => d.retryNum === 1));
    expect(again.request.event_id).toBe(sent.delivery.request.event_id);
    expect(placeOf(again)).not.toBe(placeOf(sent.delivery)); // the redelivery reached the other instance
    expect(again.status).toBe(200);

    expect(await result).toEqual({ status: "answered", answers: { answers: { env: ["Production"] } } });
    await w.slack.waitUntil(() => w.slack.message(CHANNEL, ts)?.edits === 1);
    await waitForConfirmation(w.slack, CHANNEL, sent.message.ts);
    await settle(w);
    // One ✅ (a second reactions.add would be already_reacted), no "Recorded" message.
    expect(w.slack.calls.filter((c) => c.method === "reactions.add")).toHaveLength(1);
    expect(w.slack.message(CHANNEL, sent.message.ts)?.reactions).toEqual([
      { name: "white_check_mark", users: [w.slack.bot.userId], count: 1 },
    ]);
    expect(summaryEdits(w.slack, ts)).toHaveLength(1);
    expect(w.slack.ephemerals).toEqual([]);
    expect(w.slack.deliveries.filter((d) => d.retryNum !== undefined)).toHaveLength(1);
    expect(w.a.logger.lines.concat(w.b.logger.lines)).toEqual([]);
  });

  it("an Other… answer is handled once; a copy of the submission on the other instance closes quietly", async () => {
    const w = await twoInstances(mode);
    const { ts, result } = await ask(w);
    await w.alice.press(CHANNEL, ts, "Other…");
    const modal = await w.alice.waitForView();
    const submitted = await w.alice.submit(modal.id, "Canary first");
    expect(submitted.body ?? {}).toEqual({}); // closed, no field error
    expect(await result).toEqual({ status: "answered", answers: { answers: { env: ["Canary first"] } } });
    await w.slack.waitUntil(() => w.slack.message(CHANNEL, ts)?.edits === 1);

    const copy = await copyToTheOther(w.slack, submitted);
    expect(copy.body ?? {}).toEqual({}); // not "already answered" in the modal
    await settle(w);
    expect(w.slack.message(CHANNEL, ts)?.text).toBe("✅ Deploy: Canary first — @alice");
    expect(summaryEdits(w.slack, ts)).toHaveLength(1);
    expect(w.slack.ephemerals).toEqual([]);
    expectCleanRun(w);
  });
});
