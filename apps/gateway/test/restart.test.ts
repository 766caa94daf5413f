import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFakeDiscord } from "@ask-user/testkit/discord";
import { afterEach, describe, expect, it } from "vitest";
import { call, deployInput, tempDir } from "./harness.ts";

const bin = fileURLToPath(new URL("../bin/ask-user.js", import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Starts `ask-user start` as a real child process and resolves with its HTTP URL from the banner. */
async function startChild(
  dbPath: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [bin, "start"], {
    env: { ...process.env, ASK_USER_PORT: "0", ASK_USER_DB: dbPath, ASK_USER_LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${output}`)), 20_000);
    const check = () => {
      const match = /HTTP API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", check);
    child.once("exit", (code) => reject(new Error(`gateway exited with ${code}:\n${output}`)));
  });
  return { child, url, output: () => output };
}

async function killed(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

describe("restart of a real gateway process", () => {
  it("keeps every answer the API confirmed through kill -9, and pending questions stay answerable", async () => {
    const db = join(tempDir(), "gateway.db");
    const first = await startChild(db);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++)
      ids.push((await call(`${first.url}/v1/questions`, "POST", { ...deployInput, runId: "r" })).body.id);

    // Answer in a loop, several requests in flight, and kill the process in the middle of it.
    const confirmed = new Map<string, string>();
    let index = 0;
    const worker = async () => {
      while (index < ids.length) {
        const id = ids[index++] ?? "";
        const value = `value ${id.slice(0, 6)}`;
        try {
          const response = await call(`${first.url}/v1/questions/${id}/answer`, "POST", {
            answers: { deploy_target: [value] },
          });
          if (response.status === 200) confirmed.set(id, value);
        } catch {
          return; // the process is gone
        }
        if (confirmed.size === 12) await killed(first.child);
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    expect(first.child.signalCode).toBe("SIGKILL");
    expect(confirmed.size).toBeGreaterThanOrEqual(12);

    const second = await startChild(db);
    for (const [id, value] of confirmed) {
      const { body } = await call(`${second.url}/v1/questions/${id}`, "GET");
      expect(body.result).toEqual({ status: "answered", answers: { answers: { deploy_target: [value] } } });
    }
    const pending = (await call(`${second.url}/v1/questions?status=pending&runId=r`, "GET")).body.questions;
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.length + confirmed.size).toBeLessThanOrEqual(ids.length);
    const survivor = pending[0].id as string;
    const answered = await call(`${second.url}/v1/questions/${survivor}/answer`, "POST", {
      answers: { deploy_target: ["production"] },
    });
    expect(answered.body.result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });

    // A clean stop (SIGTERM) drains and exits 0, keeping the rest pending.
    const exit = new Promise((resolve) => second.child.once("exit", resolve));
    second.child.kill("SIGTERM");
    expect(await exit).toBe(0);
    const third = await startChild(db);
    const still = (await call(`${third.url}/v1/questions?status=pending&runId=r`, "GET")).body.questions;
    expect(still.length).toBe(pending.length - 1);
  }, 60_000);

  it("exits within 5 s of SIGTERM while Discord is unreachable", async () => {
    const discord = await createFakeDiscord();
    const gateway = await startChild(join(tempDir(), "gateway.db"), {
      DISCORD_BOT_TOKEN: discord.token,
      DISCORD_API_URL: discord.apiUrl,
    });
    await discord.close(); // Discord goes away: discord.js keeps trying to reconnect
    await new Promise((resolve) => setTimeout(resolve, 500));
    const exit = new Promise((resolve) =>
      gateway.child.once("exit", (code, signal) => resolve(code ?? signal)),
    );
    const started = Date.now();
    gateway.child.kill("SIGTERM");
    const code = await exit;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect([0, 1]).toContain(code);
  }, 30_000);

  it("refuses an unusable store path with one line and a non-zero exit, at once", async () => {
    const child = spawn(process.execPath, [bin, "start"], {
      env: { ...process.env, ASK_USER_PORT: "0", ASK_USER_DB: "/proc/ask-user/ask-user.db" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    const lines = stderr
      .trim()
      .split("\n")
      .filter((line) => !line.startsWith("The web panel"));
    expect(lines).toEqual([
      expect.stringMatching(
        /^Cannot open the database \/proc\/ask-user\/ask-user\.db: .*Make the folder writable, or set ASK_USER_DB/,
      ),
    ]);
  }, 20_000);

  it("refuses to start on invalid configuration, the gateway's and the channels', with one line per problem", async () => {
    const child = spawn(process.execPath, [bin, "start"], {
      env: {
        ...process.env,
        ASK_USER_PORT: "abc",
        ASK_USER_LOCALE: "fr",
        ASK_USER_HOST: "0.0.0.0",
        ASK_USER_TEXT_WEBHOOK_URL: "ftp://x",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toBe(
      [
        "Invalid configuration:",
        '- ASK_USER_PORT must be a port number (0-65535), not "abc".',
        "- ASK_USER_HOST=0.0.0.0 is reachable from other machines: set ASK_USER_TOKEN too, or bind to 127.0.0.1.",
        '- ASK_USER_LOCALE must be "en" or "de", not "fr".',
        '- ASK_USER_TEXT_WEBHOOK_URL must be an http(s) URL, not "ftp://x".',
        "",
      ].join("\n"),
    );
  }, 20_000);
});
