import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createMemoryStore } from "@ask-user/core";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { call, deployInput, tempDir, testGateway } from "./harness.ts";
import { pushEndpoint } from "./push-endpoint.ts";

const TOKEN = "push-test-token-0123456789abcdef";
const auth = { authorization: `Bearer ${TOKEN}` };

const plan = {
  questions: [
    {
      id: "environment",
      header: "Environment",
      question: "Which environment should the release go to first?",
      options: [{ label: "Staging (Recommended)" }, { label: "Production" }],
    },
    {
      id: "announce",
      header: "Announce",
      question: "How should the release be announced?",
      options: [{ label: "Changelog only (Recommended)" }, { label: "Blog post" }],
    },
  ],
};

/** Waits (bounded) until `check` is true. */
async function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function storedEndpoints(folder: string): string[] {
  const file = JSON.parse(readFileSync(join(folder, "push-subscriptions.json"), "utf8"));
  return file.subscriptions.map((s: { endpoint: string }) => s.endpoint);
}

describe("Web Push: the gateway's half", () => {
  it("makes VAPID keys on the first start in the store's folder (0600) and keeps them across restarts", async () => {
    const folder = tempDir();
    const env = { ASK_USER_DB: join(folder, "ask-user.db"), ASK_USER_TOKEN: TOKEN };
    const first = await testGateway(env);
    const keyFile = join(folder, "push-vapid.json");
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(keyFile, "utf8"));
    const { status, body } = await call(`${first.url}/v1/push/key`, "GET", undefined, auth);
    expect(status).toBe(200);
    expect(body.publicKey).toBe(stored.publicKey);
    expect(Buffer.from(body.publicKey, "base64url")).toHaveLength(65);
    expect(JSON.stringify(body)).not.toContain(stored.privateKey);
    await first.close();

    const second = await testGateway(env);
    expect((await call(`${second.url}/v1/push/key`, "GET", undefined, auth)).body.publicKey).toBe(
      body.publicKey,
    );
  });

  it("pushes each new question, encrypted and VAPID-signed, to every subscription: title, body and the panel's url", async () => {
    const folder = tempDir();
    const gw = await testGateway({ ASK_USER_DB: join(folder, "ask-user.db"), ASK_USER_TOKEN: TOKEN });
    const phone = await pushEndpoint();
    const laptop = await pushEndpoint();
    for (const device of [phone, laptop]) {
      const added = await call(`${gw.url}/v1/push/subscriptions`, "POST", device.subscription, auth);
      expect(added.status).toBe(201);
    }
    expect(storedEndpoints(folder)).toEqual([phone.subscription.endpoint, laptop.subscription.endpoint]);
    expect(statSync(join(folder, "push-subscriptions.json")).mode & 0o777).toBe(0o600);

    const created = await call(`${gw.url}/v1/questions`, "POST", deployInput, auth);
    expect(created.status).toBe(201);
    await until(() => phone.received.length === 1 && laptop.received.length === 1, "both pushes");
    expect(phone.failures).toEqual([]);
    const [push] = phone.received;
    expect(push?.payload).toEqual({
      id: created.body.id,
      title: "Deploy",
      body: "Where should I deploy?",
      url: `/#q=${created.body.id}`,
    });
    const publicKey = (await call(`${gw.url}/v1/push/key`, "GET", undefined, auth)).body.publicKey;
    expect(push?.vapidKey).toBe(publicKey);
    expect(push?.claims.aud).toBe(new URL(phone.subscription.endpoint).origin);
    expect(push?.claims.sub).toBe("mailto:ask-user@example.invalid");
    expect(push?.headers.urgency).toBe("high");
    // Kept by the push service for the question's time left (900 s by default), not longer.
    const ttl = Number(push?.headers.ttl);
    expect(ttl).toBeGreaterThan(850);
    expect(ttl).toBeLessThanOrEqual(900);

    const second = await call(`${gw.url}/v1/questions`, "POST", plan, auth);
    await until(() => phone.received.length === 2, "the second push");
    expect(phone.received[1]?.payload).toMatchObject({
      title: "Environment · Announce",
      body: "Which environment should the release go to first? (+1)",
      url: `/#q=${second.body.id}`,
    });

    // Answering sends nothing more: only new questions are pushed.
    await call(`${gw.url}/v1/questions/${second.body.id}/skip`, "POST", {}, auth);
    await call(`${gw.url}/v1/questions`, "POST", deployInput, auth);
    await until(() => phone.received.length === 3, "the third push");
    expect(laptop.received).toHaveLength(3);
  });

  it("removes a subscription whose push service answers 410 Gone, keeps one that fails otherwise, and never holds the question", async () => {
    const folder = tempDir();
    const gw = await testGateway({ ASK_USER_DB: join(folder, "ask-user.db") });
    const gone = await pushEndpoint();
    const failing = await pushEndpoint();
    gone.status = 410;
    failing.status = 500;
    await call(`${gw.url}/v1/push/subscriptions`, "POST", gone.subscription);
    await call(`${gw.url}/v1/push/subscriptions`, "POST", failing.subscription);

    const created = await call(`${gw.url}/v1/questions`, "POST", deployInput);
    expect(created.status).toBe(201);
    expect(created.body.status).toBe("pending");
    await until(() => gone.received.length === 1 && failing.received.length === 1, "both pushes");
    await until(() => storedEndpoints(folder).length === 1, "the 410 subscription removed");
    expect(storedEndpoints(folder)).toEqual([failing.subscription.endpoint]);

    await call(`${gw.url}/v1/questions`, "POST", deployInput);
    await until(() => failing.received.length === 2, "the next push");
    expect(gone.received).toHaveLength(1);
    // The question is untouched by the failures: still pending and answerable.
    const read = await call(`${gw.url}/v1/questions/${created.body.id}`, "GET");
    expect(read.body.status).toBe("pending");
  });

  it("keeps subscriptions across a restart, and DELETE unsubscribes", async () => {
    const folder = tempDir();
    const env = { ASK_USER_DB: join(folder, "ask-user.db") };
    const first = await testGateway(env);
    const device = await pushEndpoint();
    expect((await call(`${first.url}/v1/push/subscriptions`, "POST", device.subscription)).status).toBe(201);
    // The same browser subscribing again is the same subscription.
    expect((await call(`${first.url}/v1/push/subscriptions`, "POST", device.subscription)).status).toBe(200);
    await first.close();

    const second = await testGateway(env);
    await call(`${second.url}/v1/questions`, "POST", deployInput);
    await until(() => device.received.length === 1, "the push after the restart");

    const { endpoint } = device.subscription;
    expect((await call(`${second.url}/v1/push/subscriptions`, "DELETE", { endpoint })).status).toBe(204);
    const again = await call(`${second.url}/v1/push/subscriptions`, "DELETE", { endpoint });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe("No push subscription has that endpoint.");
    expect(storedEndpoints(folder)).toEqual([]);
    await call(`${second.url}/v1/questions`, "POST", deployInput);
    // Nothing arrives at an unsubscribed endpoint (checked after a question that would have pushed).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(device.received).toHaveLength(1);
  });

  it("refuses what is not a browser's push subscription, each problem with its path, and keeps the token guard", async () => {
    const gw = await testGateway({ ASK_USER_TOKEN: TOKEN });
    expect((await call(`${gw.url}/v1/push/key`, "GET")).status).toBe(401);
    expect((await call(`${gw.url}/v1/push/subscriptions`, "POST", {})).status).toBe(401);

    const device = await pushEndpoint();
    const bad = await call(
      `${gw.url}/v1/push/subscriptions`,
      "POST",
      {
        endpoint: "http://push.example.com/x",
        keys: { p256dh: "short", auth: device.subscription.keys.auth },
      },
      auth,
    );
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe("invalid_input");
    expect(bad.body.error.issues.map((issue: { path: string }) => issue.path)).toEqual([
      "endpoint",
      "keys.p256dh",
    ]);
    expect(bad.body.error.message).toContain("https://");
    const notJson = await call(`${gw.url}/v1/push/subscriptions`, "POST", "[1]", auth);
    expect(notJson.status).toBe(400);
    // A page on another site can't subscribe (the Origin check of every state-changing request).
    const cross = await call(`${gw.url}/v1/push/subscriptions`, "POST", device.subscription, {
      ...auth,
      origin: "https://evil.example",
    });
    expect(cross.status).toBe(403);
  });

  it("stops the start with what to do when the keys file is damaged, and leaves it as it was", async () => {
    const folder = tempDir();
    writeFileSync(join(folder, "push-vapid.json"), "{ not json");
    await expect(testGateway({ ASK_USER_DB: join(folder, "ask-user.db") })).rejects.toThrow(
      /The Web Push keys in .*push-vapid\.json can't be used: it is not JSON .*delete it to make new keys/,
    );
    expect(readFileSync(join(folder, "push-vapid.json"), "utf8")).toBe("{ not json");
  });

  it("keeps keys and subscriptions in memory on a store without a folder, and says so", async () => {
    const folder = tempDir();
    const lines: Array<{ msg: string }> = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const gw = await testGateway(
      { ASK_USER_DB: join(folder, "ask-user.db") },
      { store: createMemoryStore(), logger },
    );
    const device = await pushEndpoint();
    expect((await call(`${gw.url}/v1/push/subscriptions`, "POST", device.subscription)).status).toBe(201);
    await call(`${gw.url}/v1/questions`, "POST", deployInput);
    await until(() => device.received.length === 1, "the push");
    expect(existsSync(join(folder, "push-vapid.json"))).toBe(false);
    expect(existsSync(join(folder, "push-subscriptions.json"))).toBe(false);
    expect(lines.map((line) => line.msg)).toContain(
      "web push: keys and subscriptions kept in memory (no store folder): browsers subscribe again after a restart",
    );
  });
});
