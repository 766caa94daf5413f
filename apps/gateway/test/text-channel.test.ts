import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A stand-in for the user's chat bridge: records what the gateway POSTs to the text webhook. */
async function webhook(status = 200) {
  const received: Array<{ conversation: string; text: string; replyTo?: string }> = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push(JSON.parse(body));
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ messageId: `m${received.length}` }));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

describe("the text channel over HTTP", () => {
  it("posts the prompt to the webhook and takes the reply from /v1/channels/text/inbound", async () => {
    const hook = await webhook();
    const gw = await testGateway({ ASK_USER_TEXT_WEBHOOK_URL: hook.url });
    const { body } = await call(`${gw.url}/v1/questions`, "POST", { ...deployInput, target: "text:alice" });
    expect(hook.received[0]).toMatchObject({ conversation: "alice" });
    expect(hook.received[0]?.text).toContain("1. Staging (Recommended) — Safe");
    const reply = await call(`${gw.url}/v1/channels/text/inbound`, "POST", {
      conversation: "alice",
      userId: "alice",
      text: "2",
      replyTo: "m1",
    });
    expect(reply).toEqual({
      status: 200,
      body: { outcome: "answered", text: "Recorded: Production", questionId: body.id },
    });
    expect(hook.received[1]).toEqual({ conversation: "alice", text: "Recorded: Production" });
    const question = await call(`${gw.url}/v1/questions/${body.id}`, "GET");
    expect(question.body.result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    const chatter = await call(`${gw.url}/v1/channels/text/inbound`, "POST", {
      conversation: "alice",
      userId: "alice",
      text: "thanks!",
    });
    expect(chatter.body).toEqual({ outcome: "ignored" });
  });

  it("takes the prompt's own one-line example, typed as shown, and keeps line breaks", async () => {
    const hook = await webhook();
    const gw = await testGateway({ ASK_USER_TEXT_WEBHOOK_URL: hook.url });
    const input = {
      questions: [
        deployInput.questions[0],
        {
          id: "regions",
          header: "Regions",
          question: "Which regions?",
          options: [{ label: "EU (Recommended)" }, { label: "US" }, { label: "Asia" }],
          multiSelect: true,
        },
      ],
    };
    const first = await call(`${gw.url}/v1/questions`, "POST", { ...input, target: "text:alice" });
    const example = /e\.g\. (.+)$/mu.exec(hook.received[0]?.text ?? "")?.[1] ?? "";
    expect(example).toBe("1: 1; 2: 1");
    const typed = "1: 2; 2: EU (Recommended), Asia";
    const reply = await call(`${gw.url}/v1/channels/text/inbound`, "POST", {
      conversation: "alice",
      userId: "alice",
      text: typed,
    });
    expect(reply.body).toMatchObject({ outcome: "answered", questionId: first.body.id });
    const answered = await call(`${gw.url}/v1/questions/${first.body.id}`, "GET");
    expect(answered.body.result.answers.answers).toEqual({
      deploy_target: ["Production"],
      regions: ["EU (Recommended)", "Asia"],
    });
    const second = await call(`${gw.url}/v1/questions`, "POST", { ...input, target: "text:alice" });
    await call(`${gw.url}/v1/channels/text/inbound`, "POST", {
      conversation: "alice",
      userId: "alice",
      text: "1: other: first line\n2: US\n2: Asia",
    });
    const multi = await call(`${gw.url}/v1/questions/${second.body.id}`, "GET");
    expect(multi.body.result.answers.answers).toEqual({
      deploy_target: ["first line"],
      regions: ["US", "Asia"],
    });
  });

  it("uses the default target, and ends a question undeliverable at once when the webhook fails", async () => {
    const hook = await webhook(500);
    const gw = await testGateway({
      ASK_USER_TEXT_WEBHOOK_URL: hook.url,
      ASK_USER_DEFAULT_TARGET: "text:ops",
    });
    const { body } = await call(`${gw.url}/v1/questions`, "POST", deployInput);
    expect(body).toMatchObject({ status: "undeliverable", target: { channel: "text", conversation: "ops" } });
    expect(body.error).toBe("ChannelError: The text webhook refused the message: 500 Internal Server Error.");
    expect(body.result).toEqual({ status: "no_answer", reason: "undeliverable" });
  });

  it("refuses inbound messages with missing fields, and when the channel is off", async () => {
    const hook = await webhook();
    const gw = await testGateway({ ASK_USER_TEXT_WEBHOOK_URL: hook.url });
    const bad = await call(`${gw.url}/v1/channels/text/inbound`, "POST", { conversation: "", text: 5 });
    expect(bad.status).toBe(422);
    expect(bad.body.error.issues.map((i: { path: string }) => i.path)).toEqual([
      "conversation",
      "userId",
      "text",
    ]);
    const off = await testGateway();
    expect(await call(`${off.url}/v1/channels/text/inbound`, "POST", {})).toEqual({
      status: 404,
      body: {
        error: {
          code: "not_found",
          message: "The text channel is off: set ASK_USER_TEXT_WEBHOOK_URL to turn it on.",
        },
      },
    });
    expect((await call(`${off.url}/v1/channels/telegram/inbound`, "POST", {})).body.error.message).toBe(
      "The telegram channel is off: set TELEGRAM_BOT_TOKEN to turn it on.",
    );
    expect((await call(`${gw.url}/v1/channels/irc/inbound`, "POST", {})).body.error.message).toBe(
      'No channel named "irc" is running (running: text).',
    );
    expect(
      (await call(`${off.url}/v1/questions`, "POST", { ...deployInput, target: "text:x" })).body.error.issues,
    ).toEqual([{ path: "target.channel", message: 'No channel named "text" is running (running: none).' }]);
  });
});
