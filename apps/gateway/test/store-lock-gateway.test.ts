/**
 * One gateway per SQLite file, with real `ask-user start` processes: a second gateway on the same
 * database refuses to start with one line naming the first (pid, port); once the first is gone — killed
 * the hard way, or stopped — the next one starts.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gatewayProcesses } from "./gateway-process.ts";
import { tempDir } from "./harness.ts";

const processes = gatewayProcesses();

describe("a second gateway on the same SQLite file", () => {
  it("refuses to start with one line naming the first, and starts once the first is gone", {
    timeout: 90_000,
  }, async () => {
    const db = join(tempDir(), "ask-user.db");
    const first = await processes.start({ ASK_USER_DB: db });
    const port = new URL(first.url).port;
    const refused = await processes.start({ ASK_USER_DB: db }).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/^gateway exited with [1-9]\d*:/);
    const line =
      `Another ask-user gateway (pid ${first.child.pid}, port ${port}) is already using ${db}; ` +
      "stop it first, or use ASK_USER_REDIS_URL to run several instances.";
    expect(refused?.split("\n").filter((text) => text.includes(line))).toHaveLength(1);
    // The first one is untouched by the attempt.
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);

    // Killed the hard way, it leaves its lock behind: the next gateway takes it over.
    await processes.kill9(first.child);
    const second = await processes.start({ ASK_USER_DB: db });
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);

    // Stopped, it removes its lock.
    const exited = new Promise((resolve) => second.child.once("exit", resolve));
    second.child.kill("SIGTERM");
    await exited;
    expect(existsSync(`${db}.lock`)).toBe(false);
  });
});
