import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChannelPlugin } from "@ask-user/core";
import { afterEach } from "vitest";
import { runStandalone, type StandaloneIo } from "../src/index.ts";

/** One single-select question: it gets buttons where the platform has them. */
export const DEPLOY = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging (Recommended)", description: "Safe" }, { label: "Production" }],
    },
  ],
};

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Registers work for afterEach (run in reverse order). */
export function onCleanup(cleanup: () => Promise<unknown>): void {
  cleanups.push(cleanup);
}

/** A fresh folder, removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ask-user-runner-"));
  onCleanup(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** In-memory streams: stdin holds `stdin`; `interrupt()` is Ctrl-C. */
export function streams(stdin = "") {
  const out: string[] = [];
  const err: string[] = [];
  let interrupt: () => void = () => undefined;
  let removed = false;
  const io: StandaloneIo = {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    stdin: (async function* () {
      yield Buffer.from(stdin);
    })(),
    onInterrupt(handler) {
      interrupt = handler;
      return () => {
        removed = true;
      };
    },
  };
  return {
    io,
    out: () => out.join(""),
    err: () => err.join(""),
    interrupt: () => interrupt(),
    interruptRemoved: () => removed,
  };
}

/**
 * Starts `runStandalone` for `plugin` with `argv` and `env` (plus a fresh `ASK_USER_DB`) and returns the
 * pending exit code with the streams.
 */
export async function run(
  plugin: ChannelPlugin,
  argv: string[],
  env: Record<string, string> = {},
  stdin = JSON.stringify(DEPLOY),
) {
  const db = join(await tempDir(), "runner.db");
  const io = streams(stdin);
  const exit = runStandalone({ plugin, argv, env: { ASK_USER_DB: db, ...env }, io: io.io });
  return { ...io, db, exit };
}
