import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * Creates `folder` and its missing parents one level at a time. (Node's recursive `mkdirSync` spins
 * forever on some virtual file systems such as `/proc`; this fails there with ENOENT at once.)
 */
export function makeFolders(folder: string): void {
  const missing: string[] = [];
  let at = resolve(folder);
  while (!existsSync(at)) {
    missing.unshift(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const dir of missing) mkdirSync(dir);
}
