import type { Context, Hono, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { TrieRouter } from "hono/router/trie-router";
import type { GatewayEnv } from "./env.ts";
import { methodNotAllowedError, noRouteError } from "./respond.ts";

/** A path's methods; `ALL` when a route takes any method (the webhooks, which answer for themselves). */
type Methods = ReadonlySet<string>;

/**
 * The methods of every path the app has, from its own route list: a GET route takes HEAD as well
 * (Hono serves HEAD with the GET handler), except on `noHead` paths. Built once, on the first request
 * (the routes are added after the middleware).
 */
function routeTable(app: Hono<GatewayEnv>, noHead: ReadonlySet<string>): TrieRouter<Methods> {
  const byPath = new Map<string, Set<string>>();
  for (const route of app.routes) {
    if (route.path === "*" || route.path === "/*") continue; // middleware, not a route
    const methods = byPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    if (route.method === "GET" && !noHead.has(route.path)) methods.add("HEAD");
    byPath.set(route.path, methods);
  }
  const router = new TrieRouter<Methods>();
  for (const [path, methods] of byPath) router.add("ALL", path, methods);
  return router;
}

/** A route of the app (not a middleware's `*` / `/*`) that Hono's own match found for this request. */
function hasRoute(c: Context<GatewayEnv>): boolean {
  for (const route of matchedRoutes(c)) if (route.path !== "*" && route.path !== "/*") return true;
  return false;
}

/**
 * Routing before the content checks: a path the app does not have is a 404 and a known path asked
 * with another method a 405 with `Allow`, whatever the request's type and size — only a request that
 * a route will take goes on to the draining, type and size checks (503, 415, 413, 400).
 * `noHead`: paths whose GET opens a stream that a HEAD has no use for (`/mcp`): HEAD there is a 405.
 */
export function routeGuard(
  app: Hono<GatewayEnv>,
  noHead: ReadonlySet<string> = new Set(),
): MiddlewareHandler<GatewayEnv> {
  let table: TrieRouter<Methods> | undefined;
  return async (c, next) => {
    // The common case costs nothing more: Hono already matched the request against the app's routes
    // for this method, and found one. (HEAD is matched as GET by Hono, so it goes through the table.)
    if (c.req.method !== "HEAD" && hasRoute(c)) return next();
    table ??= routeTable(app, noHead);
    const allowed = new Set<string>();
    for (const [methods] of table.match("ALL", c.req.path)[0])
      for (const method of methods) allowed.add(method);
    const method = c.req.method;
    if (allowed.size === 0) throw noRouteError(method, c.req.path);
    if (!allowed.has("ALL") && !allowed.has(method)) throw methodNotAllowedError(method, c.req.path, allowed);
    return next();
  };
}
