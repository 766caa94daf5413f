import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { pushPayloadOf } from "../src/push/sender.ts";
import { call, testGateway } from "./harness.ts";
import { pushEndpoint } from "./push-endpoint.ts";
import { ask, deploy, newContext, openPanel, regions } from "./web-browser.ts";

const TOKEN = "web-install-test-token-0123456789";

/** Width and height from a PNG's IHDR. */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString("ascii")).toBe("PNG");
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/** Waits until the service worker controls the page (it claims it when it activates). */
async function controlled(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate<string>('navigator.serviceWorker.controller?.scriptURL ?? ""'), {
      timeout: 10_000,
    })
    .toMatch(/\/sw\.js$/);
}

describe("web panel: installable, offline shell and push", { timeout: 40_000 }, () => {
  it("serves a valid manifest with fetchable icons of their sizes, linked from the page, without the token", async () => {
    const gw = await testGateway({ ASK_USER_TOKEN: TOKEN });
    const response = await fetch(`${gw.url}/manifest.webmanifest`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/manifest+json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const manifest = (await response.json()) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: "ask-user",
      short_name: "ask-user",
      start_url: "/",
      display: "standalone",
      background_color: "#f5f6f8",
      theme_color: "#f5f6f8",
    });
    const icons = manifest.icons as Array<{ src: string; sizes: string; purpose: string }>;
    expect(icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual([
      "192x192 any",
      "512x512 any",
      "192x192 maskable",
      "512x512 maskable",
    ]);
    for (const icon of [...icons, { src: "/icons/apple-touch-icon.png", sizes: "180x180" }]) {
      const image = await fetch(`${gw.url}${icon.src}`);
      expect(image.headers.get("content-type")).toBe("image/png");
      expect(pngSize(Buffer.from(await image.arrayBuffer()))).toBe(icon.sizes);
    }
    const worker = await fetch(`${gw.url}/sw.js`);
    expect(worker.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect((await fetch(`${gw.url}/icons/nothing.png`)).status).toBe(404);

    // Chromium reads the same manifest from the page's <link rel="manifest"> and finds nothing wrong.
    const page = await openPanel(`${gw.url}/?token=${TOKEN}`);
    const cdp = await page.context().newCDPSession(page);
    const read = (await cdp.send("Page.getAppManifest")) as { url: string; errors: unknown[] };
    expect(read.url).toBe(`${gw.url}/manifest.webmanifest`);
    expect(read.errors).toEqual([]);
    const installable = (await cdp.send("Page.getInstallabilityErrors")) as {
      installabilityErrors: Array<{ errorId: string }>;
    };
    // Every check but one passes: a test's browser context is incognito, where nothing is installed.
    const errors = installable.installabilityErrors.map((error) => error.errorId);
    expect(errors.filter((error) => error !== "in-incognito")).toEqual([]);
    expect(await page.locator('link[rel="apple-touch-icon"]').getAttribute("href")).toBe(
      "/icons/apple-touch-icon.png",
    );
  });

  it("registers the service worker, which keeps the shell: with the gateway down the panel still opens and says it can't reach it", async () => {
    const gw = await testGateway();
    await ask(gw.url, deploy);
    const page = await openPanel(`${gw.url}/`);
    await page.getByRole("radiogroup").waitFor();
    await controlled(page);
    // The API is never kept: only the page and its assets are.
    const kept = await page.evaluate<string[]>(`(async () => {
      const cache = await caches.open("ask-user-shell-v1");
      return (await cache.keys()).map((request) => new URL(request.url).pathname);
    })()`);
    expect(kept).toContain("/");
    expect(kept.some((path) => path.startsWith("/assets/"))).toBe(true);
    expect(kept.filter((path) => path.startsWith("/v1"))).toEqual([]);

    await gw.close();
    await page.reload();
    await page.getByText("Can't reach the gateway").waitFor({ timeout: 10_000 });
    await page.getByText("Reconnecting…").waitFor();
    expect(await page.locator("h1").textContent()).toBe("ask-user");
    // What waits is unknown while offline: the panel does not say "Nothing is waiting".
    expect(await page.getByText("Questions show here again once the gateway answers.").count()).toBe(1);
    expect(await page.getByText("Nothing is waiting").count()).toBe(0);
  });

  it("shows a pushed question as a notification from the service worker (a push delivered over the DevTools protocol)", async () => {
    const gw = await testGateway();
    const id = await ask(gw.url, regions);
    const record = await gw.broker.get(id);
    if (!record) throw new Error("the question is not stored");
    const context = await newContext();
    await context.grantPermissions(["notifications"], { origin: gw.url });
    const page = await openPanel(`${gw.url}/`, {}, context);
    await controlled(page);
    const cdp = await context.newCDPSession(page);
    const registrations: Array<{ registrationId: string; scopeURL: string }> = [];
    cdp.on("ServiceWorker.workerRegistrationUpdated", (event: { registrations: typeof registrations }) => {
      registrations.push(...event.registrations);
    });
    await cdp.send("ServiceWorker.enable");
    await expect.poll(() => registrations.find((r) => r.scopeURL === `${gw.url}/`)).toBeTruthy();
    const registration = registrations.find((r) => r.scopeURL === `${gw.url}/`);

    // Exactly what the gateway sends for this question.
    const payload = pushPayloadOf(record);
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: gw.url,
      registrationId: registration?.registrationId ?? "",
      data: JSON.stringify(payload),
    });
    const shown = () =>
      page.evaluate<Array<{ title: string; body: string; tag: string; data: unknown }>>(`(async () => {
        const ready = await navigator.serviceWorker.ready;
        return (await ready.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
      })()`);
    await expect.poll(shown, { timeout: 10_000 }).toEqual([
      {
        title: "Regions",
        body: "Which regions should get the release?",
        tag: id,
        data: { id, url: `/#q=${id}` },
      },
    ]);
  });

  it("opens the question a notification points at (/#q=<id>), even when an older one waits", async () => {
    const gw = await testGateway();
    await ask(gw.url, deploy);
    const second = await ask(gw.url, regions);
    const page = await openPanel(`${gw.url}/#q=${second}`);
    await page.getByRole("group", { name: "Which regions should get the release?" }).waitFor();
    expect(new URL(page.url()).hash).toBe("");
  });

  it("Notify me subscribes this browser with the gateway's key, and the gateway then pushes new questions to it", async () => {
    const gw = await testGateway({ ASK_USER_TOKEN: TOKEN });
    const device = await pushEndpoint();
    const context = await newContext();
    // Headless Chromium has no push service to reach (that needs Google's servers): its subscribe() is
    // replaced by one that hands out the test's push endpoint, as a browser's push service would, and
    // records the applicationServerKey the panel passed.
    await context.addInitScript(`
      const subscription = ${JSON.stringify(device.subscription)};
      const calls = [];
      window.subscribeCalls = calls;
      PushManager.prototype.getSubscription = async () => null;
      PushManager.prototype.subscribe = async function (options) {
        const key = new Uint8Array(options.applicationServerKey);
        calls.push(btoa(String.fromCharCode(...key)).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, ""));
        return {
          endpoint: subscription.endpoint,
          options: { applicationServerKey: key.buffer, userVisibleOnly: true },
          toJSON: () => subscription,
          unsubscribe: async () => true,
        };
      };
    `);
    const page = await openPanel(`${gw.url}/?token=${TOKEN}`, {}, context);
    await controlled(page);
    await context.grantPermissions(["notifications"], { origin: gw.url });
    await page.getByRole("button", { name: "Notify me" }).click();
    const on = page.getByText("Notifications on");
    await on.waitFor();
    await expect.poll(() => on.getAttribute("title")).toBe("Notifications on, also when this tab is closed");
    const key = (await call(`${gw.url}/v1/push/key`, "GET", undefined, { authorization: `Bearer ${TOKEN}` }))
      .body.publicKey;
    expect(await page.evaluate<string[]>("subscribeCalls")).toEqual([key]);

    const id = await ask(gw.url, deploy, { authorization: `Bearer ${TOKEN}` });
    await expect.poll(() => device.received.length, { timeout: 5_000 }).toBe(1);
    expect(device.received[0]?.payload).toMatchObject({ id, title: "Deploy", url: `/#q=${id}` });
  });
});
