import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAskUserClient } from "@ask-user/client";
import { afterEach, describe, expect, it } from "vitest";
import { deployInput } from "./cli-fake-gateway.ts";
import { inputFile } from "./cli-run.ts";
import { gatewayProcesses } from "./gateway-process.ts";
import { tempDir } from "./harness.ts";

const bin = fileURLToPath(new URL("../bin/ask-user.js", import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** `ask-user ARGS` as a process of its own (pipes, no terminal), its output collected. */
function cli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    /** Resolves once stderr shows `text`; fails after 20 s with what was printed. */
    async waitFor(text: string): Promise<void> {
      for (let i = 0; i < 1000; i++) {
        if (stderr.includes(text)) return;
        if (child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`"${text}" never came; stdout:\n${stdout}\nstderr:\n${stderr}`);
    },
  };
}

/** Polls `check` every 50 ms until it returns a value; fails after 20 s. */
async function until<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("condition not met within 20 s");
}

const gateways = gatewayProcesses();

describe("ask-user ask and wait across a gateway restart", () => {
  it("get the answer given after a kill -9 and a restart on the same port and database", async () => {
    const db = join(tempDir(), "ask-user.db");
    const first = await gateways.start({ ASK_USER_DB: db });
    const env = { ASK_USER_URL: first.url };
    const asker = cli(["ask", inputFile(deployInput)], env);
    const operator = createAskUserClient({ url: first.url });
    const id = await until(async () => (await operator.listPage({ status: "pending" })).questions[0]?.id);
    const waiter = cli(["wait", id], env);
    await asker.waitFor(`(question ${id})`);
    await waiter.waitFor(`(question ${id})`);

    await gateways.kill9(first.child);
    await asker.waitFor("gateway unreachable");
    await waiter.waitFor("gateway unreachable");
    expect(asker.stdout()).toBe("");

    const second = await gateways.start({ ASK_USER_DB: db, ASK_USER_PORT: new URL(first.url).port });
    expect(second.url).toBe(first.url);
    const alice = createAskUserClient({ url: second.url, name: "alice" });
    await alice.answer(id, { deploy_target: ["Production"] });

    const result = { status: "answered", answers: { answers: { deploy_target: ["Production"] } } };
    expect(await asker.exited).toBe(0);
    expect(JSON.parse(asker.stdout())).toEqual(result);
    expect(asker.stderr()).toMatch(/^reconnected to the gateway after \d+ s$/m);
    expect(asker.stderr().match(/gateway unreachable/g)).toHaveLength(1);
    expect(await waiter.exited).toBe(0);
    expect(waiter.stdout()).toBe(asker.stdout());
  }, 90_000);
});
