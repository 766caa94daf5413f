import { AskUserError } from "@ask-user/core";
import type { Hono } from "hono";
import type { GatewayEnv } from "../http/env.ts";
import { HttpError, readObject, sendJson } from "../http/respond.ts";
import type { PushService } from "./service.ts";
import { parsePushSubscription } from "./subscriptions.ts";

/**
 * The Web Push routes under `/v1/push` (behind the token like the rest of `/v1`):
 * `GET /v1/push/key` → `{ publicKey }`; `POST /v1/push/subscriptions` with the browser's
 * `PushSubscription` JSON → 201 (200 when that endpoint was subscribed already);
 * `DELETE /v1/push/subscriptions` with `{ endpoint }` → 204 (404 when unknown).
 */
export function mountPushRoutes(app: Hono<GatewayEnv>, push: PushService): void {
  app.get("/v1/push/key", (c) => sendJson(c, 200, { publicKey: push.publicKey }));

  app.post("/v1/push/subscriptions", async (c) => {
    const parsed = parsePushSubscription(readObject(c));
    if (!parsed.ok) {
      const message = `Not a push subscription: ${parsed.issues.map((i) => `${i.path}: ${i.message}`).join(" ")}`;
      throw new HttpError(422, "invalid_input", message, parsed.issues);
    }
    const { renewed } = await reachable(push.subscriptions.add(parsed.value));
    return sendJson(c, renewed ? 200 : 201, { endpoint: parsed.value.endpoint, subscribed: true });
  });

  app.delete("/v1/push/subscriptions", async (c) => {
    const { endpoint } = readObject(c);
    if (typeof endpoint !== "string" || endpoint === "") {
      const issues = [{ path: "endpoint", message: "endpoint must be the subscription's endpoint URL." }];
      throw new HttpError(422, "invalid_input", "Send { endpoint } of the subscription to remove.", issues);
    }
    if (!(await reachable(push.subscriptions.remove(endpoint)))) {
      throw new HttpError(404, "not_found", "No push subscription has that endpoint.");
    }
    return c.body(null, 204);
  });
}

/** The subscriptions' answer; a 503 to try again when their store (Redis) can't be reached. */
async function reachable<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AskUserError && error.code === "store_failure") {
      const message = "The push subscriptions can't be reached right now; try again in a few seconds.";
      throw new HttpError(503, "unavailable", message, undefined, { "retry-after": "5" });
    }
    throw error;
  }
}
