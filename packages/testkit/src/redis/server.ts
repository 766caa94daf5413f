/** A real `redis-server` (Debian's) for tests: started on a free loopback port, no persistence. */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const START_TIMEOUT_MS = 10_000;

/** A real `redis-server` on 127.0.0.1, without persistence, owned by the test file that started it. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Kills the server (SIGKILL: no goodbye to clients) and waits until it is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing was persisted). */
  start(): Promise<void>;
}

function findRedisServer(): string {
  try {
    return execFileSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).trim();
  } catch {
    throw new Error(
      "redis-server is not installed, and the @ask-user/redis tests need a real one. " +
        "Install it with: apt-get install -y redis-server",
    );
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** Spawns redis-server on `port` and resolves once it accepts connections. */
function spawnServer(binary: string, port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    binary,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`redis-server did not start within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${signal ?? code}) before it was ready:\n${output}`));
    });
  });
}

/** Starts a redis-server on a free port (a few tries, in case another process takes the port first). */
export async function startRedisServer(): Promise<RedisServer & { stop(): Promise<void> }> {
  const binary = findRedisServer();
  const dir = mkdtempSync(join(tmpdir(), "ask-user-redis-"));
  let child: ChildProcess | undefined;
  let port = 0;
  for (let attempt = 1; child === undefined; attempt++) {
    port = await freePort();
    try {
      child = await spawnServer(binary, port, dir);
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    async start() {
      if (child) throw new Error("the server is running");
      child = await spawnServer(binary, port, dir);
    },
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
