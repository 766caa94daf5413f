/**
 * `ask-user doctor`: one line per check with ✓ / ! / ✗ and the fix in the line, exit 0 unless something
 * failed, `--json` for scripts — against a real gateway (in this process), a closed port, a program that
 * is not a gateway, and databases, locks and Redis servers that are right or wrong.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from "node:net";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { DoctorReport } from "../src/cli/doctor.ts";
import { nodeCheck } from "../src/cli/doctor-setup.ts";
import { webDistDir } from "../src/http/static.ts";
import { closedPortUrl } from "./cli-fake-gateway.ts";
import { run } from "./cli-run.ts";
import { tempDir, testGateway, textWebhook } from "./harness.ts";

const TOKEN = "doctor-test-token-0123456789";
const servers: Array<Server | TcpServer> = [];
/** Each server's connections, cut after the test (a silent server's would keep it open). */
const sockets = new Map<Server | TcpServer, Set<Socket>>();

afterEach(async () => {
  for (const server of servers.splice(0)) {
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of sockets.get(server) ?? []) socket.destroy();
    await closed;
  }
});

/** The check lines of the output: `✓ …`, `! …`, `✗ …` (without the indent). */
function lines(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((line) => /^ {2}[✓!✗] /.test(line))
    .map((line) => line.slice(2));
}

/** A Redis stand-in: `reply(command)` answers each command of a chunk (RESP arrays, `*<n>` each). */
function fakeRedis(reply: (command: string) => string): TcpServer {
  return createTcpServer((socket) => {
    socket.on("data", (chunk) => {
      for (const command of chunk.toString().split(/^\*/m).slice(1)) socket.write(reply(command));
    });
  });
}

/** The Redis line of the output. */
function redisLine(stdout: string): string | undefined {
  return lines(stdout).find((line) => line.includes("Redis at"));
}

/** The port of a URL. */
function portOf(url: string): string {
  return new URL(url).port;
}

/** Waits (bounded) until `condition` holds. */
async function until(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function listen<T extends Server | TcpServer>(server: T): Promise<number> {
  servers.push(server);
  const open = new Set<Socket>();
  sockets.set(server, open);
  server.on("connection", (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** An environment for a gateway that is not running: a fresh database path and a closed port. */
async function idleEnv(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return {
    ASK_USER_DB: join(tempDir(), "ask-user.db"),
    ASK_USER_PORT: portOf(await closedPortUrl()),
    ...extra,
  };
}

/** A gateway with a token and the text channel, connected; its environment as `ask-user start` had it. */
async function healthyGateway() {
  const hook = await textWebhook();
  const env = {
    ASK_USER_DB: join(tempDir(), "ask-user.db"),
    ASK_USER_TOKEN: TOKEN,
    ASK_USER_TEXT_WEBHOOK_URL: hook.url,
  };
  const gateway = await testGateway(env);
  await until(() => gateway.channelStatus().text?.state === "connected", "the text channel");
  return { gateway, env: { ...env, ASK_USER_PORT: portOf(gateway.url) } };
}

describe("ask-user doctor", () => {
  it("says ✓ to every check of a healthy gateway and exits 0", async () => {
    const { gateway, env } = await healthyGateway();
    const { code, stdout, stderr } = await run(["doctor", "--url", gateway.url], { env });
    expect(stderr).toBe("");
    const checks = lines(stdout);
    const built =
      existsSync(join(webDistDir, "index.html")) &&
      existsSync(fileURLToPath(new URL("../dist/cli/main.js", import.meta.url)));
    for (const line of checks) {
      if (line.includes("Not built:") && !built) continue;
      expect(line.startsWith("✓ "), line).toBe(true);
    }
    expect(code).toBe(0);
    expect(checks).toContain(`✓ Node.js ${process.version}`);
    expect(checks).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^✓ pnpm \d+\.\d+/),
        `✓ ASK_USER_* variables are valid: 127.0.0.1:${portOf(gateway.url)}, SQLite ${env.ASK_USER_DB}, a token (ASK_USER_TOKEN)`,
        "✓ text: on (ASK_USER_TEXT_WEBHOOK_URL set)",
        "✓ telegram: off (set TELEGRAM_BOT_TOKEN to turn it on)",
        `✓ the database folder ${join(env.ASK_USER_DB, "..")} is writable`,
        expect.stringMatching(/^✓ .*ask-user\.db opens \(schema version \d+, 0 questions\)$/),
        `✓ held by the gateway at ${gateway.url} (pid ${process.pid}, port ${portOf(gateway.url)})`,
        `✓ an ask-user gateway answers at ${gateway.url} (pid ${process.pid})`,
        "✓ the gateway accepts ASK_USER_TOKEN",
        "✓ text: connected",
      ]),
    );
    expect(stdout.trimEnd().endsWith("Everything looks right.") || !built).toBe(true);
  });

  it("says a wrong or missing token is refused and how to fix it", async () => {
    const { gateway, env } = await healthyGateway();
    const wrong = await run(["doctor", "--url", gateway.url], {
      env: { ...env, ASK_USER_TOKEN: "not-the-gateway-token-42" },
    });
    expect(wrong.code).toBe(1);
    expect(lines(wrong.stdout)).toContain(
      "✗ The gateway refused ASK_USER_TOKEN (401): set ASK_USER_TOKEN to the gateway's token.",
    );
    const { ASK_USER_TOKEN: _, ...withoutToken } = env;
    const missing = await run(["doctor", "--url", gateway.url], { env: withoutToken });
    expect(missing.code).toBe(1);
    expect(lines(missing.stdout)).toContain(
      "✗ The gateway wants a token (401): set ASK_USER_TOKEN to the gateway's token.",
    );
  });

  it("lists every problem of the configuration and of each channel, one ✗ line each", async () => {
    const { gateway } = await healthyGateway();
    const env = await idleEnv({
      ASK_USER_PORT: "http",
      ASK_USER_TOKEN: TOKEN,
      TELEGRAM_BOT_TOKEN: "123:abc",
      TELEGRAM_API_ROOT: "not a url",
      TELEGRAM_WEBHOOK_SECRET: "bad secret!",
    });
    const { code, stdout } = await run(["doctor", "--url", gateway.url], { env });
    expect(code).toBe(1);
    expect(lines(stdout)).toEqual(
      expect.arrayContaining([
        '✗ ASK_USER_PORT must be a port number (0-65535), not "http".',
        '✗ telegram: TELEGRAM_API_ROOT is not a URL: "not a url".',
        "✗ telegram: Set TELEGRAM_WEBHOOK_URL and TELEGRAM_WEBHOOK_SECRET together (webhook mode), or neither.",
        "✗ telegram: TELEGRAM_WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ and -.",
        "✓ discord: off (set DISCORD_BOT_TOKEN to turn it on)",
        `! telegram is on in this environment but the gateway at ${gateway.url} does not run it: it was started with other variables (restart it with these).`,
      ]),
    );
    expect(stdout).toMatch(/4 problems \(✗\) and 1 warning \(!\) above/);
  });

  it("fails a database folder that cannot be used, and a file that is no database", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "file"), "not a folder");
    const db = join(dir, "file", "sub", "ask-user.db");
    const notFolder = await run(["doctor", "--url", await closedPortUrl()], {
      env: await idleEnv({ ASK_USER_DB: db }),
    });
    expect(notFolder.code).toBe(1);
    expect(lines(notFolder.stdout)).toContain(
      `✗ Cannot open the database ${db}: ${join(dir, "file", "sub")} is not a folder (ENOTDIR). Make the folder writable, or set ASK_USER_DB to a file in a writable folder.`,
    );

    const junk = join(dir, "junk.db");
    writeFileSync(junk, "this is a text file, not SQLite ".repeat(8));
    const notDb = await run(["doctor", "--url", await closedPortUrl()], {
      env: await idleEnv({ ASK_USER_DB: junk }),
    });
    expect(lines(notDb.stdout)).toContain(
      `✗ ${junk} is not an ask-user database (SQLITE_NOTADB): set ASK_USER_DB to another file, or move this one away.`,
    );
  });

  it.skipIf(process.getuid?.() === 0)("fails a database folder that is not writable", async () => {
    const folder = join(tempDir(), "locked");
    mkdirSync(folder, { mode: 0o500 });
    const db = join(folder, "ask-user.db");
    const { code, stdout } = await run(["doctor", "--url", await closedPortUrl()], {
      env: await idleEnv({ ASK_USER_DB: db }),
    });
    expect(code).toBe(1);
    expect(lines(stdout)).toContain(
      `✗ Cannot open the database ${db}: its folder ${folder} is not writable (EACCES). Make the folder writable, or set ASK_USER_DB to a file in a writable folder.`,
    );
  });

  it("warns, with its pid and port, when another gateway holds the database; a dead holder's lock is fine", async () => {
    const { gateway, env } = await healthyGateway();
    const elsewhere = await closedPortUrl();
    const held = await run(["doctor", "--url", elsewhere], {
      env: { ...env, ASK_USER_PORT: portOf(elsewhere) },
    });
    const port = portOf(gateway.url);
    expect(lines(held.stdout)).toContain(
      `! Another ask-user gateway (pid ${process.pid} on ${hostname()}, port ${port}) holds ${env.ASK_USER_DB}: a start with this configuration is refused; stop it first, or check that one with --url http://127.0.0.1:${port}.`,
    );

    const db = join(tempDir(), "ask-user.db");
    const gone = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => gone.once("exit", resolve));
    const lock = { pid: gone.pid, port: 7355, startedAt: Date.now(), host: hostname() };
    writeFileSync(`${db}.lock`, JSON.stringify(lock));
    const stale = await run(["doctor", "--url", elsewhere], { env: await idleEnv({ ASK_USER_DB: db }) });
    expect(lines(stale.stdout)).toContain(
      `✓ the lock was left by a gateway that is gone (pid ${gone.pid}, port 7355); the next start takes it over`,
    );
  });

  it("says to start a gateway when nothing answers at the URL", async () => {
    const url = await closedPortUrl();
    const { code, stdout } = await run(["doctor", "--url", url], {
      env: await idleEnv({ ASK_USER_VIA_PNPM: "1" }),
    });
    expect(code).toBe(1);
    expect(lines(stdout)).toContain(
      `✗ Nothing answers at ${url}: start one with \`pnpm start\`, or point --url (ASK_USER_URL) at the gateway you run.`,
    );
    const bare = await run(["doctor"], { env: await idleEnv({ ASK_USER_URL: url }) });
    expect(lines(bare.stdout)).toContain(
      `✗ Nothing answers at ${url}: start one with \`ask-user start\`, or point --url (ASK_USER_URL) at the gateway you run.`,
    );
  });

  it("tells a program that is not a gateway at the URL, and on the port a start would take", async () => {
    const port = await listen(
      createHttpServer((_request, response) => {
        response.writeHead(404, { "content-type": "text/html" });
        response.end("<h1>Not here</h1>");
      }),
    );
    const url = `http://127.0.0.1:${port}`;
    const { code, stdout } = await run(["doctor", "--url", url], {
      env: await idleEnv({ ASK_USER_PORT: String(port) }),
    });
    expect(code).toBe(1);
    const checks = lines(stdout);
    expect(checks).toContain(
      `✗ ${url} answers, but not as an ask-user gateway (/healthz: HTTP 404): another program has this port — point --url at the gateway, or start the gateway on another port (ASK_USER_PORT).`,
    );
    expect(checks).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(
            `^✗ Port ${port} is in use — another program is listening there: stop it, or set ASK_USER_PORT(=\\d+| to a free port)\\.$`,
          ),
        ),
      ]),
    );
  });

  it("shows each channel's state from /healthz: failing with its reason, connecting", async () => {
    const port = await listen(
      createHttpServer((request, response) => {
        response.setHeader("content-type", "application/json");
        if (request.url?.startsWith("/v1/questions")) return response.end('{"questions":[]}');
        response.end(
          JSON.stringify({
            ok: true,
            draining: false,
            pid: 4242,
            channels: {
              telegram: {
                state: "retrying",
                error: "Could not reach Telegram for getMe: ECONNREFUSED",
                retryInSeconds: 8,
              },
              slack: { state: "connecting" },
            },
          }),
        );
      }),
    );
    const url = `http://127.0.0.1:${port}`;
    const { code, stdout } = await run(["doctor", "--url", url], { env: await idleEnv() });
    expect(code).toBe(1);
    expect(lines(stdout)).toEqual(
      expect.arrayContaining([
        `✓ an ask-user gateway answers at ${url} (pid 4242)`,
        "✓ the gateway needs no token",
        "✗ telegram: failed: Could not reach Telegram for getMe: ECONNREFUSED; the gateway tries again in 8 s",
        "! slack: connecting…",
      ]),
    );
  });

  it("pings Redis when ASK_USER_REDIS_URL is set, and fails one that does not answer", async () => {
    const port = await listen(fakeRedis((command) => (/PING/i.test(command) ? "+PONG\r\n" : "+OK\r\n")));
    const up = await run(["doctor", "--url", await closedPortUrl()], {
      env: await idleEnv({ ASK_USER_REDIS_URL: `redis://127.0.0.1:${port}` }),
    });
    const upLines = lines(up.stdout);
    expect(upLines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^✓ Redis at 127\\.0\\.0\\.1:${port} answers PING \\(\\d+ ms\\)$`)),
      ]),
    );
    expect(upLines.some((line) => line.includes("database"))).toBe(false);

    const closed = portOf(await closedPortUrl());
    const started = Date.now();
    const down = await run(["doctor", "--url", await closedPortUrl()], {
      env: await idleEnv({ ASK_USER_REDIS_URL: `redis://:secret@127.0.0.1:${closed}` }),
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(down.code).toBe(1);
    expect(redisLine(down.stdout)).toBe(
      `✗ Redis at 127.0.0.1:${closed} cannot be reached (ECONNREFUSED): start it, or fix ASK_USER_REDIS_URL.`,
    );
    expect(down.stdout).not.toContain("secret");

    const locked = await listen(fakeRedis(() => "-NOAUTH Authentication required.\r\n"));
    const noPassword = await run(["doctor", "--url", await closedPortUrl()], {
      env: await idleEnv({ ASK_USER_REDIS_URL: `redis://127.0.0.1:${locked}` }),
    });
    expect(redisLine(noPassword.stdout)).toBe(
      `✗ Redis at 127.0.0.1:${locked} wants a password: put its password in ASK_USER_REDIS_URL (redis://:PASSWORD@host:port, or redis://USER:PASSWORD@…).`,
    );

    const silent = await listen(createTcpServer(() => undefined));
    const slow = await run(["doctor", "--url", await closedPortUrl()], {
      env: await idleEnv({ ASK_USER_REDIS_URL: `redis://127.0.0.1:${silent}` }),
    });
    expect(redisLine(slow.stdout)).toBe(
      `✗ Redis at 127.0.0.1:${silent} did not answer PING within 2 s: start it, or fix ASK_USER_REDIS_URL.`,
    );
  });

  it("prints the checks as JSON with --json", async () => {
    const url = await closedPortUrl();
    const { code, stdout } = await run(["doctor", "--json", "--url", url], { env: await idleEnv() });
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as DoctorReport;
    expect(Object.keys(report)).toEqual(["ok", "url", "checks"]);
    expect(report.ok).toBe(false);
    expect(report.url).toBe(url);
    for (const item of report.checks) {
      expect(Object.keys(item).sort()).toEqual(["group", "id", "message", "status"]);
      expect(["ok", "warn", "fail"]).toContain(item.status);
      expect(["setup", "config", "store", "gateway"]).toContain(item.group);
    }
    const byId = (id: string) => report.checks.find((item) => item.id === id);
    expect(byId("node")).toEqual({
      id: "node",
      group: "setup",
      status: "ok",
      message: `Node.js ${process.version}`,
    });
    expect(byId("gateway")).toMatchObject({ group: "gateway", status: "fail" });
    expect(byId("store.lock")).toMatchObject({ group: "store", status: "ok" });
    expect(byId("channel.slack")).toMatchObject({ group: "config", status: "ok" });
  });

  it("refuses a Node.js older than the repository supports", () => {
    expect(nodeCheck("v18.19.0")).toEqual({
      id: "node",
      group: "setup",
      status: "fail",
      message: "Node.js v18.19.0 is too old: ask-user needs Node.js 20.11 or newer (https://nodejs.org).",
    });
    expect(nodeCheck("v20.11.0").status).toBe("ok");
    expect(nodeCheck("v22.1.0").status).toBe("ok");
  });
});
