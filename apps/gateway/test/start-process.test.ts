import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLink, type Link } from "@ask-user/testkit/link";
import { createFakeTelegram, type FakeTelegram } from "@ask-user/testkit/telegram";
import { afterEach, describe, expect, it } from "vitest";
import { kill9 } from "../src/testing.ts";
import { tempDir } from "./harness.ts";

const bin = fileURLToPath(new URL("../bin/ask-user.js", import.meta.url));
const children: ChildProcess[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const child of children.splice(0)) await kill9(child);
  for (const close of closers.splice(0).reverse()) await close();
});

/** `ask-user start` with `env`; `output()` is everything it printed so far (stdout and stderr). */
function start(env: Record<string, string>) {
  const child = spawn(process.execPath, [bin, "start"], {
    env: { ...process.env, ASK_USER_PORT: "0", NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const printed = async (pattern: RegExp, where: () => string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(where());
      if (match) return match;
      if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}:\n${stdout}\n${stderr}`);
      if (Date.now() > deadline)
        throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${stdout}\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  return {
    child,
    stdout: (pattern: RegExp, timeoutMs = 20_000) => printed(pattern, () => stdout, timeoutMs),
    stderr: (pattern: RegExp, timeoutMs = 20_000) => printed(pattern, () => stderr, timeoutMs),
  };
}

describe("ask-user start with a chat platform unreachable (issue #20)", () => {
  it("prints the banner and serves at once, says why Telegram is retrying, and connects when it comes up", async () => {
    const tg: FakeTelegram = await createFakeTelegram({ botUsername: "gateway_test_bot" });
    closers.push(() => tg.close());
    const link: Link = await createLink();
    closers.push(() => link.close());
    const spawnedAt = Date.now();
    const gateway = start({
      ASK_USER_DB: join(tempDir(), "ask-user.db"),
      ASK_USER_LOG_LEVEL: "debug",
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: link.url(),
    });
    const [, url] = await gateway.stdout(/HTTP API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/);
    const bannerMs = Date.now() - spawnedAt;
    const health = (await (await fetch(`${url}/healthz`)).json()) as {
      channels: Record<string, { state: string; error?: string }>;
    };
    expect(health.channels.telegram).toMatchObject({
      state: "retrying",
      error: expect.stringMatching(/getMe/),
    });
    // The banner says where the channel is; the log says why, and when it tries again.
    await gateway.stdout(
      /Channels {5}telegram: retrying in \d+ s \(Could not reach Telegram for getMe: .+\)/,
    );
    await gateway.stderr(
      /"level":40,.*"msg":"telegram: Could not reach Telegram for getMe: .+; retrying in 1 s"/,
    );
    // Node starting the CLI under tsx takes a few seconds on a loaded machine; the platform adds nothing.
    expect(bannerMs).toBeLessThan(15_000);

    link.up(tg.apiRoot);
    await gateway.stderr(/"msg":"telegram: connected \(telegram \(@gateway_test_bot, long polling\)\)"/);
    const connected = (await (await fetch(`${url}/healthz`)).json()) as typeof health;
    expect(connected.channels.telegram).toEqual({ state: "connected" });

    const exited = new Promise<number | null>((resolve) => gateway.child.once("exit", resolve));
    gateway.child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 60_000);
});
