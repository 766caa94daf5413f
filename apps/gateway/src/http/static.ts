import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, extname, join, normalize, sep } from "node:path";
import type { Context } from "hono";
import { HttpError, sendJson } from "./respond.ts";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
};

// The page loads only its own files; its API calls and event stream go to the same origin.
const PAGE_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "manifest-src 'self'; worker-src 'self'; " +
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
};

/** The built panel shipped in `@ask-user/web` (its `dist` folder, made by `pnpm build`). */
export const webDistDir = join(
  dirname(createRequire(import.meta.url).resolve("@ask-user/web/package.json")),
  "dist",
);

/** Serves the built web panel (`apps/web/dist`): `GET /` and `GET /assets/*`. */
export interface StaticSite {
  /** `GET /`: the panel's page; a JSON client (`Accept: application/json`) gets the service description. */
  index(c: Context): Promise<Response>;
  /** `GET /assets/<file>`: a hashed, immutable file of the build. */
  asset(c: Context): Promise<Response>;
  /**
   * The installable app's files, at fixed names the browser asks for: `GET /manifest.webmanifest`,
   * `/sw.js` (the service worker, scope `/`) and `/icons/<name>.png`. Revalidated on every use
   * (`no-cache`): they keep their names from build to build.
   */
  installFile(c: Context): Promise<Response>;
}

/** The paths of {@link StaticSite.installFile}. */
export const INSTALL_PATHS = ["/manifest.webmanifest", "/sw.js", "/icons/:name{[a-z0-9-]+\\.png}"] as const;

/** The service description `GET /` answered before the panel existed; JSON clients still get it. */
const DESCRIPTION = { name: "ask-user", web: "/", api: "/v1", mcp: "/mcp", events: "/v1/events" };

function wantsJson(c: Context): boolean {
  const accept = c.req.header("accept") ?? "";
  return accept.includes("application/json") && !accept.includes("text/html");
}

/**
 * Creates the static handler for a built panel folder (default: `@ask-user/web`'s `dist`). A missing
 * build is a 503 page saying how to build it, not a crash.
 */
export function createStaticSite(root: string = webDistDir): StaticSite {
  const assets = join(root, "assets");
  return {
    async index(c) {
      if (wantsJson(c)) return sendJson(c, 200, DESCRIPTION);
      let html: Buffer;
      try {
        html = await readFile(join(root, "index.html"));
      } catch {
        const text =
          "The web panel is not built yet. Run `pnpm start` (it builds the panel when needed) or " +
          "`pnpm --filter @ask-user/web build`, then reload. The API is at /v1.\n";
        return c.body(text, 503, {
          "content-type": "text/plain; charset=utf-8",
          "cache-control": "no-store",
          "retry-after": "5",
        });
      }
      return c.body(new Uint8Array(html), 200, {
        ...PAGE_HEADERS,
        "content-type": TYPES[".html"] ?? "text/html",
        "cache-control": "no-cache",
      });
    },

    async asset(c) {
      // The raw path, decoded here once: the traversal check sees exactly what is read.
      const file = new URL(c.req.url).pathname.slice("/assets/".length);
      let name: string;
      try {
        name = decodeURIComponent(file);
      } catch {
        throw new HttpError(400, "invalid_path", "The asset path is not valid.");
      }
      const path = normalize(join(assets, name));
      if (name.includes("\0") || !path.startsWith(assets + sep)) {
        throw new HttpError(404, "not_found", "No such asset.");
      }
      let body: Buffer;
      try {
        body = await readFile(path);
      } catch {
        throw new HttpError(404, "not_found", "No such asset (the panel may have been rebuilt: reload).");
      }
      return c.body(new Uint8Array(body), 200, {
        "content-type": TYPES[extname(path).toLowerCase()] ?? "application/octet-stream",
        // Vite puts a content hash in every asset's name: a changed file has a new name.
        "cache-control": "public, max-age=31536000, immutable",
        "x-content-type-options": "nosniff",
      });
    },

    async installFile(c) {
      // Only the fixed names of INSTALL_PATHS reach here: no traversal is possible.
      const name = new URL(c.req.url).pathname.slice(1);
      let body: Buffer;
      try {
        body = await readFile(join(root, name));
      } catch {
        throw new HttpError(404, "not_found", "No such file (the panel may not be built: run `pnpm start`).");
      }
      const headers: Record<string, string> = {
        "content-type": TYPES[extname(name).toLowerCase()] ?? "application/octet-stream",
        "cache-control": "no-cache",
        "x-content-type-options": "nosniff",
      };
      return c.body(new Uint8Array(body), 200, headers);
    },
  };
}
