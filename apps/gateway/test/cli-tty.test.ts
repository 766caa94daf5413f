import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { KEY } from "./cli-terminal.ts";
import { call, deployInput, tempDir, testGateway } from "./harness.ts";

const bin = fileURLToPath(new URL("../bin/ask-user.js", import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** util-linux `script` gives the child a real pseudo-terminal: stdin, stdout and stderr are a TTY. */
const hasScript = (() => {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/**
 * Runs `ask-user ARGS` — in a pseudo-terminal (`tty: true`, through `script`) or with plain pipes —
 * and collects everything it prints. `keys` writes to the terminal as typing would (Ctrl-C included).
 */
function launch(args: string[], env: Record<string, string>, tty: boolean) {
  // A pipe has no window size: give the terminal one, as a real window would. `exec` puts ask-user
  // itself under `script`: a shell in between (dash, where SHELL is /bin/sh as in CI) would die of the
  // Ctrl-C first and `script` would report its 130 instead of ask-user's exit code.
  const command = `stty cols 120 rows 40; exec ${[process.execPath, bin, ...args].map((part) => `'${part}'`).join(" ")}`;
  const child = tty
    ? spawn("script", ["-qfec", command, "/dev/null"], {
        env: { ...process.env, SHELL: "/bin/sh", ...env },
      })
    : spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    output: () => output,
    exited,
    keys: (text: string) => child.stdin?.write(text),
    async waitFor(pattern: RegExp): Promise<RegExpExecArray> {
      for (let i = 0; i < 600; i++) {
        const match = pattern.exec(output);
        if (match) return match;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`${pattern} never appeared in:\n${output}`);
    },
  };
}

const ESC = "\x1b[";

describe.skipIf(!hasScript)("the gateway's terminal", () => {
  it("tells another terminal how to reach it, logs questions as readable lines and stops on Ctrl-C in words", async () => {
    const token = "a-token-of-at-least-16-characters";
    const env = { ASK_USER_PORT: "0", ASK_USER_DB: join(tempDir(), "a.db"), ASK_USER_TOKEN: token };
    const gateway = launch(["start"], env, true);
    const [, url = ""] = await gateway.waitFor(/HTTP API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/);
    await gateway.waitFor(/ {4}ask-user answer\r?\n/); // the installed command: not started by pnpm
    expect(gateway.output()).toContain(`export ASK_USER_URL=${url}\r\n`);
    expect(gateway.output()).toContain(
      "export ASK_USER_TOKEN=…   # the ASK_USER_TOKEN this gateway was started with",
    );
    expect(gateway.output()).not.toContain(token);

    const auth = { authorization: `Bearer ${token}` };
    const { body } = await call(`${url}/v1/questions`, "POST", deployInput, auth);
    await call(
      `${url}/v1/questions/${body.id}/answer`,
      "POST",
      { answers: { deploy_target: ["Production"] }, surface: "cli", name: "alice" },
      auth,
    );
    const second = await call(`${url}/v1/questions`, "POST", deployInput, auth);
    await call(`${url}/v1/questions/${second.body.id}`, "DELETE", undefined, auth);
    await gateway.waitFor(/ended "Deploy": cancelled/);
    const lines = gateway
      .output()
      .split("\r\n")
      .map((line) => stripVTControlCharacters(line));
    const activity = lines.filter((line) => / INFO +(asked|answered|ended) /.test(line));
    expect(activity.map((line) => line.replace(/^\d\d:\d\d:\d\d /, ""))).toEqual([
      `INFO  asked "Deploy" on the web panel and API only (no target) questionId=${body.id}`,
      `INFO  answered "Deploy" by alice via CLI: Production questionId=${body.id}`,
      `INFO  asked "Deploy" on the web panel and API only (no target) questionId=${second.body.id}`,
      `INFO  ended "Deploy": cancelled by an operator via HTTP API questionId=${second.body.id}`,
    ]);

    gateway.keys("\x03"); // Ctrl-C, through the terminal
    expect(await gateway.exited).toBe(0);
    const after = gateway.output().slice(gateway.output().indexOf("^C"));
    expect(after).toMatch(/INFO .*stopping: pending questions stay in the store/);
    expect(after).toMatch(/INFO .*stopped/);
    expect(gateway.output()).not.toContain('{"level"');
  }, 40_000);

  it("logs JSON lines when its output is not a terminal", async () => {
    const env = { ASK_USER_PORT: "0", ASK_USER_DB: join(tempDir(), "b.db") };
    const gateway = launch(["start"], env, false);
    const [, url = ""] = await gateway.waitFor(/HTTP API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/);
    const { body } = await call(`${url}/v1/questions`, "POST", deployInput);
    await gateway.waitFor(/"msg":"asked \\"Deploy\\"/);
    const line = gateway
      .output()
      .split("\n")
      .find((text) => text.includes('"msg":"asked'));
    expect(JSON.parse(line ?? "")).toMatchObject({ level: 30, questionId: body.id });
    expect(gateway.output()).not.toContain(ESC);
  }, 40_000);

  it("colours list on a terminal, and not with NO_COLOR or through a pipe", async () => {
    const gw = await testGateway();
    await call(`${gw.url}/v1/questions`, "POST", deployInput);
    const coloured = launch(["list"], { ASK_USER_URL: gw.url }, true);
    await coloured.exited;
    expect(coloured.output()).toContain(`${ESC}1mID`);
    expect(coloured.output()).toContain(`${ESC}33mpending`);
    const noColor = launch(["list"], { ASK_USER_URL: gw.url, NO_COLOR: "1" }, true);
    await noColor.exited;
    expect(noColor.output()).toMatch(/ID +STATUS/);
    expect(noColor.output()).not.toContain(ESC);
    const piped = launch(["list"], { ASK_USER_URL: gw.url }, false);
    await piped.exited;
    expect(piped.output()).toMatch(/ID +STATUS/);
    expect(piped.output()).not.toContain(ESC);
  }, 40_000);

  it("answers a question with arrow keys and Enter typed into a real terminal", async () => {
    const gw = await testGateway();
    const { body } = await call(`${gw.url}/v1/questions`, "POST", deployInput);
    const person = launch(["answer"], { ASK_USER_URL: gw.url }, true);
    await person.waitFor(/Deploy: Where should I deploy\?/);
    await person.waitFor(/Skip/);
    person.keys(KEY.down);
    await new Promise((resolve) => setTimeout(resolve, 100));
    person.keys(KEY.enter);
    await person.waitFor(/Answered Production/);
    expect(await person.exited).toBe(0);
    expect((await call(`${gw.url}/v1/questions/${body.id}`, "GET")).body.answers).toEqual({
      deploy_target: ["Production"],
    });
  }, 40_000);
});
