import { TIMED_OUT, within } from "@ask-user/core";
import { GatewayApi } from "./api.ts";

/**
 * The installable app's browser half: the service worker (`public/sw.js`: the shell offline, Web Push
 * notifications) and this browser's push subscription at the gateway.
 */

/** The service worker's address; its scope is the whole panel. */
export const SERVICE_WORKER_URL = "/sw.js";

/** Where api.ts keeps this tab's token (session storage). */
const TOKEN_KEY = "ask-user.token";

/** How long the panel waits for the service worker to be ready before it gives up on push. */
const READY_MS = 10_000;

/** A bounded wait's value, or `undefined` when it timed out. */
const orNothing = <T>(value: T | typeof TIMED_OUT): T | undefined =>
  value === TIMED_OUT ? undefined : value;

/** True where the page can have a service worker (a secure context: https, or http on 127.0.0.1). */
export function serviceWorkerSupported(): boolean {
  return typeof navigator !== "undefined" && "serviceWorker" in navigator && window.isSecureContext;
}

/** True where Web Push can reach this browser (iOS: only in the app added to the Home Screen). */
export function pushSupported(): boolean {
  return serviceWorkerSupported() && "PushManager" in window && typeof Notification !== "undefined";
}

/** Registers the service worker once per page; a failure only means no offline shell and no push. */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration | undefined> {
  if (!serviceWorkerSupported()) return Promise.resolve(undefined);
  return navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: "/" }).catch(() => undefined);
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameBytes(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

/** What subscribing came to: pushes reach this browser, or the panel keeps to in-tab notifications. */
export type PushOutcome = "subscribed" | "unsupported" | "failed";

/**
 * Subscribes this browser to the gateway's pushes (notification permission granted already): the
 * gateway's VAPID key from `GET /v1/push/key`, `pushManager.subscribe({ userVisibleOnly: true,
 * applicationServerKey })` (a subscription made with another key is replaced), then
 * `POST /v1/push/subscriptions`. Never throws: any failure is `"failed"`.
 */
export async function subscribePush(
  token: string | undefined = sessionStorage.getItem(TOKEN_KEY) ?? undefined,
): Promise<PushOutcome> {
  if (!pushSupported()) return "unsupported";
  try {
    const api = new GatewayApi(token);
    const [registration, key] = await Promise.all([
      within(navigator.serviceWorker.ready, READY_MS).then(orNothing),
      api.call<{ publicKey?: string }>("GET", "/v1/push/key"),
    ]);
    const publicKey = key.status === 200 ? key.body?.publicKey : undefined;
    if (!registration || !publicKey) return "failed";
    const applicationServerKey = keyBytes(publicKey);
    let subscription = await registration.pushManager.getSubscription();
    if (subscription && !sameBytes(subscription.options.applicationServerKey, applicationServerKey)) {
      await subscription.unsubscribe(); // made for another gateway's key: it would never get a push
      subscription = null;
    }
    // A browser whose push service can't be reached may never answer: bounded like the ready wait.
    subscription ??=
      orNothing(
        await within(
          registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey }),
          READY_MS,
        ),
      ) ?? null;
    if (!subscription) return "failed";
    const saved = await api.call("POST", "/v1/push/subscriptions", subscription.toJSON());
    return saved.status === 200 || saved.status === 201 ? "subscribed" : "failed";
  } catch {
    return "failed";
  }
}

/** The question id of a panel address `/#q=<id>` (where a push notification's click goes). */
export function questionOfHash(hash: string): string | undefined {
  const match = /^#q=([A-Za-z0-9_-]{1,64})$/.exec(hash);
  return match?.[1];
}
