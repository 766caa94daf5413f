/**
 * Repair after a crash (SPEC §4) on Slack: a real gateway process (Bolt in Socket Mode against the fake
 * Slack) is killed with kill -9 while Slack holds its post or its edit open; the gateway restarted on
 * the same database delivers the prompt — or keeps the one Slack posted after all, found by its metadata
 * in the channel's history — or edits the message to its summary.
 */
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createFakeSlack, type FakeSlack, type FakeSlackMessage } from "@ask-user/testkit/slack";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type GatewayProcess, gatewayProcesses } from "./gateway-process.ts";
import { call, deployInput, tempDir } from "./harness.ts";

const CHANNEL = "C0GENERAL";
const processes = gatewayProcesses();
const fakes: FakeSlack[] = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});

async function fakeSlack(): Promise<FakeSlack> {
  const slack = await createFakeSlack();
  fakes.push(slack);
  return slack;
}

/** `ask-user start` as a real child process with Slack on; resolves with its HTTP URL once Bolt is up. */
async function startGateway(slack: FakeSlack, db: string): Promise<GatewayProcess> {
  const gateway = await processes.start({
    ASK_USER_DB: db,
    ASK_USER_ANSWERERS: "conversation", // a shared channel, no creator
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_APP_TOKEN: slack.appToken,
    SLACK_API_URL: slack.apiUrl,
  });
  await slack.waitUntil(() => slack.socketConnections() === 1, 20_000); // Bolt is connected
  return gateway;
}

async function kill9(slack: FakeSlack, child: ChildProcess): Promise<void> {
  await processes.kill9(child);
  await slack.waitUntil(() => slack.socketConnections() === 0, 5_000);
}

/** The prompt messages of the question in the channel (those with its buttons). */
const prompts = (slack: FakeSlack): FakeSlackMessage[] =>
  slack.messages(CHANNEL).filter((m) => m.blocks.some((b) => b.type === "actions"));

/** The pending question once the gateway recorded the prompt message `ts` it posted (just after the post). */
async function recordedPrompt(url: string, ts: string) {
  return vi.waitFor(
    async () => {
      const [pending] = (await call(`${url}/v1/questions?status=pending`, "GET")).body.questions;
      expect(pending?.deliveries.map((d: { messageId: string }) => d.messageId)).toContain(ts);
      return pending;
    },
    { timeout: 10_000, interval: 50 },
  );
}

/** How long the restarted gateway may take to record an edit it made. */
const FINALIZED = { timeout: 10_000, interval: 50 };

const question = { ...deployInput, target: `slack:${CHANNEL}`, runId: "slack-repair" };

describe("repair after kill -9 on Slack", () => {
  it("a prompt whose post was cut off by kill -9 is delivered by the restarted gateway, once, and a tap answers it", async () => {
    const slack = await fakeSlack();
    const db = join(tempDir(), "gw.db");
    const first = await startGateway(slack, db);
    const held = slack.hold("chat.postMessage");
    const asked = call(`${first.url}/v1/questions`, "POST", question);
    asked.catch(() => undefined); // the process dies under it
    await slack.waitUntil(() => held.calls.length === 1, 20_000);
    await kill9(slack, first.child);
    held.drop(); // the post never reached Slack
    expect(slack.messages(CHANNEL)).toEqual([]);

    const second = await startGateway(slack, db);
    const prompt = await slack.waitUntil(() => prompts(slack)[0], 20_000);
    expect(prompt.text).toBe("Deploy: Where should I deploy?");
    const pending = await recordedPrompt(second.url, prompt.ts);
    expect(pending.deliveries).toEqual([expect.objectContaining({ messageId: prompt.ts, kind: "prompt" })]);

    const tap = await slack.user({ id: "U0ALICE", name: "alice" }).press(CHANNEL, prompt.ts, "Production");
    expect(tap.status).toBe(200);
    const answered = await call(`${second.url}/v1/questions/${pending.id}?wait=5`, "GET");
    expect(answered.body.result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    await slack.waitUntil(
      () => slack.message(CHANNEL, prompt.ts)?.text.startsWith("✅ Deploy: Production"),
      10_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a later sweep finds nothing to do
    expect(slack.messages(CHANNEL).map((m) => m.text)).toEqual(["✅ Deploy: Production — @alice"]);
    expect(slack.calls.filter((c) => c.method === "chat.postMessage")).toHaveLength(2); // cut, then repaired
  }, 90_000);

  it("a prompt post Slack finished after kill -9 (unheard) is found and kept by the restarted gateway: one prompt, and its buttons answer", async () => {
    const slack = await fakeSlack();
    const db = join(tempDir(), "gw.db");
    const first = await startGateway(slack, db);
    const held = slack.hold("chat.postMessage");
    const asked = call(`${first.url}/v1/questions`, "POST", question);
    asked.catch(() => undefined);
    await slack.waitUntil(() => held.calls.length === 1, 20_000);
    await kill9(slack, first.child);
    held.release(); // Slack posts it; the ts never reached the store
    const [posted] = prompts(slack);
    if (!posted) throw new Error("Slack did not post the held prompt");

    const second = await startGateway(slack, db);
    // The restarted gateway finds its earlier post in the channel's history (by the prompt's metadata).
    const pending = await recordedPrompt(second.url, posted.ts);
    expect(pending.deliveries).toEqual([expect.objectContaining({ messageId: posted.ts, kind: "prompt" })]);
    expect(slack.calls.filter((c) => c.method === "conversations.history")).not.toEqual([]);
    await slack.user({ id: "U0ALICE", name: "alice" }).press(CHANNEL, posted.ts, "Production");
    const answered = await call(`${second.url}/v1/questions/${pending.id}?wait=5`, "GET");
    expect(answered.body.result.answers).toEqual({ answers: { deploy_target: ["Production"] } });
    await slack.waitUntil(
      () => slack.message(CHANNEL, posted.ts)?.text === "✅ Deploy: Production — @alice",
      10_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a later sweep posts nothing
    expect(slack.messages(CHANNEL).map((m) => m.text)).toEqual(["✅ Deploy: Production — @alice"]);
    expect(slack.calls.filter((c) => c.method === "chat.postMessage")).toHaveLength(1);
  }, 90_000);

  it("a summary edit cut off by kill -9 is made by the restarted gateway", async () => {
    const slack = await fakeSlack();
    const db = join(tempDir(), "gw.db");
    const first = await startGateway(slack, db);
    const created = await call(`${first.url}/v1/questions`, "POST", question);
    expect(created.status).toBe(201);
    const prompt = await slack.waitUntil(() => prompts(slack)[0], 20_000);
    const held = slack.hold("chat.update");
    const tap = await slack.user({ id: "U0ALICE", name: "alice" }).press(CHANNEL, prompt.ts, "Production");
    expect(tap.status).toBe(200);
    await slack.waitUntil(() => held.calls.length === 1, 20_000);
    const stored = await call(`${first.url}/v1/questions/${created.body.id}`, "GET");
    expect(stored.body.status).toBe("answered"); // the answer is in the store; only the edit is missing
    await kill9(slack, first.child);
    held.drop();
    expect(actionsOf(slack.message(CHANNEL, prompt.ts))).toHaveLength(1); // still the buttons

    const second = await startGateway(slack, db);
    const edited = await slack.waitUntil(() => {
      const message = slack.message(CHANNEL, prompt.ts);
      return message?.edits ? message : undefined;
    }, 20_000);
    expect(edited.text).toBe("✅ Deploy: Production — @alice");
    expect(actionsOf(edited)).toEqual([]);
    await vi.waitFor(async () => {
      const after = await call(`${second.url}/v1/questions/${created.body.id}`, "GET");
      expect(after.body.deliveries).toEqual([
        expect.objectContaining({ messageId: prompt.ts, finalizedAt: expect.any(Number) }),
      ]);
    }, FINALIZED);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a later sweep edits nothing again
    expect(slack.message(CHANNEL, prompt.ts)?.edits).toBe(1);
  }, 90_000);

  it("an edit Slack carried out after the gateway died is made again, harmlessly, by the restarted one", async () => {
    const slack = await fakeSlack();
    const db = join(tempDir(), "gw.db");
    const first = await startGateway(slack, db);
    const created = await call(`${first.url}/v1/questions`, "POST", question);
    const prompt = await slack.waitUntil(() => prompts(slack)[0], 20_000);
    const held = slack.hold("chat.update");
    await slack.user({ id: "U0ALICE", name: "alice" }).press(CHANNEL, prompt.ts, "Staging (Recommended)");
    await slack.waitUntil(() => held.calls.length === 1, 20_000);
    await kill9(slack, first.child);
    held.release(); // Slack finishes the edit; nobody hears the answer
    expect(slack.message(CHANNEL, prompt.ts)?.text).toBe("✅ Deploy: Staging (Recommended) — @alice");

    const second = await startGateway(slack, db);
    await slack.waitUntil(() => slack.message(CHANNEL, prompt.ts)?.edits === 2, 20_000);
    expect(slack.message(CHANNEL, prompt.ts)?.text).toBe("✅ Deploy: Staging (Recommended) — @alice");
    await vi.waitFor(async () => {
      const after = await call(`${second.url}/v1/questions/${created.body.id}`, "GET");
      expect(after.body.deliveries[0].finalizedAt).toEqual(expect.any(Number));
    }, FINALIZED);
  }, 90_000);
});

function actionsOf(message: FakeSlackMessage | undefined) {
  return (message?.blocks ?? []).filter((block) => block.type === "actions");
}
