import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";
import { newContext } from "./web-browser.ts";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The user's chat bridge for the text channel: records every message the gateway sends. */
async function chatBridge() {
  const received: Array<{ conversation: string; text: string }> = [];
  const url = await listen(
    createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        received.push(JSON.parse(body));
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ messageId: `m${received.length}` }));
      });
    }),
  );
  return { url: `${url}/hook`, received };
}

/**
 * A page on another site (another port of 127.0.0.1) that tries everything a page can send without a
 * preflight: `no-cors` fetches with a text body (`text/plain`) and with a body of no type, and HTML
 * forms (urlencoded, and text/plain shaped as JSON), each against creating, asking, answering, skipping
 * and the text channel's inbound.
 */
function attackPage(gateway: string, questionId: string): string {
  const create = JSON.stringify({ ...deployInput, target: "text:alice" });
  const reply = JSON.stringify({ conversation: "alice", userId: "alice", text: "2", replyTo: "m1" });
  const answer = JSON.stringify({ answers: { deploy_target: ["Production"] }, name: "@alice" });
  const attempts = [
    ["/v1/questions", create],
    ["/v1/ask", create],
    ["/v1/channels/text/inbound", reply],
    [`/v1/questions/${questionId}/answer`, answer],
    [`/v1/questions/${questionId}/skip`, "{}"],
  ];
  // A form that posts `<name>=<value>` as text/plain: name + "=" + value is the JSON body.
  const forms = attempts
    .flatMap(([path, body], i) => {
      const json = body as string;
      const name = `${json.slice(0, -1)},"pad":"`;
      const textPlain = `<form id="t${i}" method="post" enctype="text/plain" target="f${i}t" action="${gateway}${path}">
        <input type="hidden" name='${name.replaceAll("'", "&#39;")}' value='"}'></form>
        <iframe name="f${i}t"></iframe>`;
      const urlencoded = `<form id="u${i}" method="post" target="f${i}u" action="${gateway}${path}">
        <input type="hidden" name="text" value="2"><input type="hidden" name="conversation" value="alice">
        <input type="hidden" name="userId" value="alice"></form><iframe name="f${i}u"></iframe>`;
      return [textPlain, urlencoded];
    })
    .join("\n");
  return `<!doctype html><title>attacker</title>${forms}
<script>
  const gateway = ${JSON.stringify(gateway)};
  const attempts = ${JSON.stringify(attempts)};
  for (const [path, body] of attempts) {
    fetch(gateway + path, { method: "POST", mode: "no-cors", body }).catch(() => undefined);
    fetch(gateway + path, { method: "POST", mode: "no-cors", body: new Blob([body]) }).catch(() => undefined);
  }
  for (const form of document.querySelectorAll("form")) form.submit();
</script>`;
}

describe("a page on another site, against a gateway without a token", { timeout: 30_000 }, () => {
  it("can't create, ask, answer, skip or forge a chat reply with no-cors fetches or HTML forms", async () => {
    const bridge = await chatBridge();
    const gw = await testGateway({ ASK_USER_TEXT_WEBHOOK_URL: bridge.url });
    const asked = await call(`${gw.url}/v1/questions`, "POST", { ...deployInput, target: "text:alice" });
    expect(bridge.received).toHaveLength(1);
    const id = asked.body.id as string;

    const html = attackPage(gw.url, id);
    const attacker = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(html);
      }),
    );
    expect(new URL(attacker).origin).not.toBe(new URL(gw.url).origin);

    const page = await (await newContext()).newPage();
    const answers: Array<{ path: string; status: number; type: string | undefined }> = [];
    page.on("response", (response) => {
      const url = new URL(response.url());
      if (url.origin !== new URL(gw.url).origin) return;
      const type = response.request().headers()["content-type"];
      answers.push({ path: url.pathname, status: response.status(), type });
    });
    await page.goto(`${attacker}/`);

    // Every attempt reached the gateway (5 paths × 2 fetches + 5 paths × 2 forms) and was refused.
    await expect.poll(() => answers.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(20);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answers).toHaveLength(20);
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(403));
    const types = new Set(answers.map((answer) => answer.type?.split(";")[0]));
    expect(types).toEqual(new Set(["text/plain", undefined, "application/x-www-form-urlencoded"]));

    // Nothing created, nothing delivered, nothing answered.
    const list = await call(`${gw.url}/v1/questions`, "GET");
    expect(list.body.questions.map((q: { id: string; status: string }) => [q.id, q.status])).toEqual([
      [id, "pending"],
    ]);
    expect((await call(`${gw.url}/v1/questions/${id}`, "GET")).body.answers).toBeUndefined();
    expect(bridge.received).toHaveLength(1);

    // The forged reply was a working one: sent as the chat bridge sends it, it answers.
    const genuine = await call(`${gw.url}/v1/channels/text/inbound`, "POST", {
      conversation: "alice",
      userId: "alice",
      text: "2",
      replyTo: "m1",
    });
    expect(genuine.body).toMatchObject({ outcome: "answered", questionId: id });
  });
});
