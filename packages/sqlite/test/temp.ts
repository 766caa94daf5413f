import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/**
 * Hands out database paths in fresh folders under the OS temp dir (one level deeper than the folder,
 * so the store has to create its parent) and removes them after the file's tests.
 */
export function tempPaths(): () => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), "ask-user-sqlite-"));
    dirs.push(dir);
    return join(dir, "data", "questions.db");
  };
}
