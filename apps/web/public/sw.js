// The ask-user panel's service worker (scope "/"):
// - keeps the shell — the page and the hashed assets it names — so the installed app opens without the
//   gateway (it then says it can't reach it); the page is network-first, assets cache-first;
// - never touches the API: /v1 (questions, events, push), /mcp and /healthz always go to the network;
// - shows the Web Push notification of a new question, and a click opens the panel at that question.

const SHELL = "ask-user-shell-v1";
const PAGE = "/";

/** The worker's global scope (a ServiceWorkerGlobalScope). */
const worker = self;

/** Keeps `response` (the page) and every asset it names; drops the assets of older builds. */
async function keepPage(response) {
  const cache = await caches.open(SHELL);
  const html = await response.clone().text();
  const assets = [...new Set(html.match(/\/assets\/[A-Za-z0-9._-]+/g) ?? [])];
  await Promise.all(
    assets.map(async (path) => {
      if (await cache.match(path)) return;
      const asset = await fetch(path);
      if (asset.ok) await cache.put(path, asset);
    }),
  );
  await cache.put(PAGE, response);
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (path.startsWith("/assets/") && !assets.includes(path)) await cache.delete(request);
  }
}

worker.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      try {
        const response = await fetch(PAGE, { cache: "no-cache", headers: { accept: "text/html" } });
        if (response.ok) await keepPage(response);
      } catch {
        // Offline while installing: the next page load fills the cache.
      }
      await worker.skipWaiting();
    })(),
  );
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== SHELL) await caches.delete(name);
      await worker.clients.claim();
    })(),
  );
});

/** The page from the network (kept for later); the kept page when the gateway can't be reached. */
async function page(event) {
  try {
    const response = await fetch(event.request);
    if (response.ok) event.waitUntil(keepPage(response.clone()).catch(() => undefined));
    return response;
  } catch (error) {
    const kept = await caches.match(PAGE, { cacheName: SHELL });
    if (kept) return kept;
    throw error;
  }
}

/** A hashed asset: never changes under its name, so the kept copy is as good as the network's. */
async function asset(request) {
  const kept = await caches.match(request, { cacheName: SHELL });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) {
    const copy = response.clone();
    const cache = await caches.open(SHELL);
    await cache.put(request, copy);
  }
  return response;
}

/** The manifest and icons: the network's when it answers, else the kept copy. */
async function networkFirst(event) {
  try {
    const response = await fetch(event.request);
    if (response.ok) {
      const copy = response.clone();
      event.waitUntil(caches.open(SHELL).then((cache) => cache.put(event.request, copy)));
    }
    return response;
  } catch (error) {
    const kept = await caches.match(event.request, { cacheName: SHELL });
    if (kept) return kept;
    throw error;
  }
}

worker.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  if (request.mode === "navigate" && url.pathname === PAGE) event.respondWith(page(event));
  else if (url.pathname.startsWith("/assets/")) event.respondWith(asset(request));
  else if (url.pathname === "/manifest.webmanifest" || url.pathname.startsWith("/icons/"))
    event.respondWith(networkFirst(event));
  // Anything else — the API above all — is not handled here: the browser asks the gateway, uncached.
});

/** What the gateway pushes: `{ id, title, body, url }` (see the gateway's push/sender.ts). */
function readPush(data) {
  try {
    const value = data?.json();
    if (value && typeof value === "object") return value;
  } catch {
    // Not JSON: shown as text.
  }
  return { body: data?.text() ?? "" };
}

worker.addEventListener("push", (event) => {
  const push = readPush(event.data);
  const id = typeof push.id === "string" ? push.id : undefined;
  const title = typeof push.title === "string" && push.title !== "" ? push.title : "ask-user";
  event.waitUntil(
    worker.registration.showNotification(title, {
      body: typeof push.body === "string" ? push.body : "",
      // One notification per question: the panel's own (in-tab) notification has the same tag.
      tag: id ?? "ask-user",
      icon: "/icons/icon-192.png",
      data: { id, url: typeof push.url === "string" && push.url.startsWith("/") ? push.url : PAGE },
    }),
  );
});

worker.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const { id, url } = event.notification.data ?? {};
  event.waitUntil(
    (async () => {
      const windows = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).pathname === PAGE);
      if (open) {
        // The panel that is open already shows that question (hooks.ts listens).
        open.postMessage({ type: "open-question", id });
        await open.focus();
        return;
      }
      await worker.clients.openWindow(new URL(url ?? PAGE, worker.location.origin).href);
    })(),
  );
});
