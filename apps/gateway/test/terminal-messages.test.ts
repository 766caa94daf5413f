import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { channelHint } from "../src/cli/channel-hint.ts";
import { databaseMessage, portInUseMessage } from "../src/cli/start-errors.ts";
import { ConfigError, loadConfig } from "../src/config.ts";
import { prettyLog } from "../src/log.ts";
import { runStart } from "../src/start.ts";
import { kill9 } from "../src/testing.ts";
import { deployInput, startFakeGateway } from "./cli-fake-gateway.ts";
import { envFor, inputFile, run } from "./cli-run.ts";
import { tempDir, testGateway } from "./harness.ts";

const bin = fileURLToPath(new URL("../bin/ask-user.js", import.meta.url));
const closers: Array<() => Promise<unknown>> = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) await kill9(child);
  for (const close of closers.splice(0)) await close();
});

/** Listens on a free loopback port and returns it. */
async function listen(server: Server | TcpServer): Promise<number> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.close(resolve);
        for (const socket of sockets) socket.destroy(); // fetch's keep-alive
      }),
  );
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** `runStart` with `env`, returning its exit code and what it wrote on stderr. */
async function start(env: Record<string, string>) {
  let stderr = "";
  const code = await runStart({
    stdout: { write: () => true },
    stderr: { write: (text: string) => (stderr += text) },
    env: { ASK_USER_LOG_LEVEL: "silent", ...env },
  });
  return { code, stderr };
}

describe("messages that say the fix", () => {
  it("names the port, the gateway already there and a free port to use", async () => {
    expect(portInUseMessage(7310, { kind: "ask-user", pid: 1234 }, 7311)).toBe(
      "Port 7310 is in use — another ask-user gateway (pid 1234) is running there: stop it, or set ASK_USER_PORT=7311.",
    );
    expect(portInUseMessage(7310, { kind: "other" })).toBe(
      "Port 7310 is in use — another program is listening there: stop it, or set ASK_USER_PORT to a free port.",
    );

    const gateway = createHttpServer((_request, response) => {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ ok: true, draining: false, pid: 4321 }));
    });
    const port = await listen(gateway);
    const taken = await start({ ASK_USER_PORT: String(port), ASK_USER_DB: join(tempDir(), "a.db") });
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(
      new RegExp(
        `Port ${port} is in use — another ask-user gateway \\(pid 4321\\) is running there: stop it, or set ASK_USER_PORT=(\\d+)\\.\\n$`,
      ),
    );
    const suggested = Number(/ASK_USER_PORT=(\d+)/.exec(taken.stderr)?.[1]);
    expect(suggested).toBeGreaterThan(port);

    const other = await listen(createTcpServer((socket) => socket.end("SSH-2.0\r\n")));
    const byOther = await start({ ASK_USER_PORT: String(other), ASK_USER_DB: join(tempDir(), "b.db") });
    expect(byOther.stderr).toContain(`Port ${other} is in use — another program is listening there: stop it`);
  }, 30_000);

  it("says why the database cannot be opened and how to fix it", async () => {
    const eacces = Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
    expect(databaseMessage("/srv/db/ask-user.db", eacces)).toBe(
      "Cannot open the database /srv/db/ask-user.db: its folder /srv/db is not writable (EACCES). Make the folder writable, or set ASK_USER_DB to a file in a writable folder.",
    );
    const dir = tempDir();
    writeFileSync(join(dir, "file"), "not a folder");
    const notDir = await start({ ASK_USER_PORT: "0", ASK_USER_DB: join(dir, "file", "sub", "a.db") });
    expect(notDir.code).toBe(1);
    expect(notDir.stderr).toContain(`Cannot open the database ${join(dir, "file", "sub", "a.db")}:`);
    expect(notDir.stderr).toContain("set ASK_USER_DB to a file in a writable folder.");
    expect(notDir.stderr).not.toContain("unable to open database file");
  });

  it("starts on a database whose folders do not exist yet (a fresh clone's .ask-user/)", async () => {
    const db = join(tempDir(), "fresh", "deeper", "ask-user.db");
    const child = spawn(process.execPath, [bin, "start"], {
      env: { ...process.env, ASK_USER_PORT: "0", ASK_USER_LOG_LEVEL: "warn", ASK_USER_DB: db },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    const deadline = Date.now() + 20_000;
    while (!output.includes("ask-user gateway is running")) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(output).not.toContain("Cannot create the lock file");
  }, 30_000);

  it("refuses --timeout outside 30-3600 seconds instead of changing it silently", async () => {
    const gw = await startFakeGateway();
    const short = await run(["ask", inputFile(deployInput), "--timeout", "5"], { env: envFor(gw) });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("--timeout must be 30-3600 seconds (got 5): use --timeout 30.");
    const long = await run(["ask", inputFile(deployInput), "--timeout", "7200"], { env: envFor(gw) });
    expect(long.stderr).toContain("--timeout must be 30-3600 seconds (got 7200): use --timeout 3600.");
    expect(gw.requests.filter((request) => request.method === "POST")).toEqual([]);
  });

  it("logs pretty lines on a terminal and JSON when piped, unless ASK_USER_LOG_FORMAT says", () => {
    expect(prettyLog({}, true)).toBe(true);
    expect(prettyLog({}, false)).toBe(false);
    expect(prettyLog({ ASK_USER_LOG_FORMAT: "json" }, true)).toBe(false);
    expect(prettyLog({ ASK_USER_LOG_FORMAT: "pretty" }, false)).toBe(true);
    expect(() => loadConfig({ ASK_USER_LOG_FORMAT: "xml" }, [])).toThrow(ConfigError);
    expect(() => loadConfig({ ASK_USER_LOG_FORMAT: "xml" }, [])).toThrow(
      'ASK_USER_LOG_FORMAT must be json or pretty (got "xml")',
    );
  });

  it("ASK_USER_LOG_FORMAT=pretty gives readable lines, not JSON, under the banner", async () => {
    const child = spawn(process.execPath, [bin, "start"], {
      env: {
        ...process.env,
        ASK_USER_PORT: "0",
        ASK_USER_LOG_FORMAT: "pretty",
        NO_COLOR: "1",
        ASK_USER_DB: join(tempDir(), "a.db"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk) => (stdout += chunk));
    child.stderr?.on("data", (chunk) => (stderr += chunk));
    const printed = async (pattern: RegExp, where: () => string) => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const match = pattern.exec(where());
        if (match) return match;
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(`no ${pattern}:\n${stdout}\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const [, url] = await printed(/HTTP API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/, () => stdout);
    // A question asked is one info line: "asked …".
    const asked = await fetch(`${url}/v1/questions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(deployInput),
    });
    expect(asked.status).toBe(201);
    const [line] = await printed(/\d\d:\d\d:\d\d INFO +asked "Deploy".*\n/, () => stderr);
    expect(line).toContain("questionId=");
    expect(stderr).not.toContain('{"level"');
  }, 30_000);
});

describe("an unknown channel in --target", () => {
  it("lists the running channels and says which variable turns the asked one on", async () => {
    const gw = await testGateway();
    const env = { ASK_USER_URL: gw.url };
    const off = await run(["ask", inputFile(deployInput), "--target", "telegram:42"], { env });
    expect(off.code).toBe(2);
    expect(off.stderr).toContain('No channel named "telegram" is running (running: none).');
    expect(off.stderr).toContain(
      "  To turn telegram on, set TELEGRAM_BOT_TOKEN where the gateway runs and restart it.\n",
    );
    const typo = await run(["ask", inputFile({ ...deployInput, target: "telgram:42" })], { env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      '  There is no channel named "telgram"; the channels are: telegram, discord, slack, text.\n',
    );
  });

  it("builds the hint from the plugins' variables", () => {
    const plugin = { name: "chat", variables: [{ name: "CHAT_TOKEN", required: true }] };
    expect(channelHint("chat", [plugin as never])).toBe(
      "To turn chat on, set CHAT_TOKEN where the gateway runs and restart it.",
    );
  });
});
