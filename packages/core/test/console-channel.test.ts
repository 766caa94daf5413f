import { spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { consolePlugin } from "../examples/console-channel.ts";
import {
  createAskUser,
  createMemoryCoordination,
  createMemoryStore,
  InvalidChannelConfigError,
  isChannelPlugin,
} from "../src/index.ts";

const input = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging (Recommended)" }, { label: "Production" }],
    },
  ],
};

describe("the console channel plugin (README example)", () => {
  it("is a plugin, enabled and configured from its variables", () => {
    const plugin = consolePlugin(new PassThrough(), new PassThrough());
    expect(isChannelPlugin(plugin)).toBe(true);
    expect(plugin.enabled({})).toBe(false);
    expect(plugin.enabled({ ASK_USER_CONSOLE: " 1 " })).toBe(true);
    expect(plugin.readConfig({ ASK_USER_CONSOLE: "1" })).toEqual({ userName: "you" });
    expect(() => plugin.readConfig({ ASK_USER_CONSOLE: "yes" })).toThrow(InvalidChannelConfigError);
    expect(plugin.parseConversation("console")).toBe("console");
    expect(plugin.parseConversation("elsewhere")).toBeUndefined();
  });

  it("prints the prompt and takes the typed line as the answer", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let printed = "";
    stdout.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
    });
    const plugin = consolePlugin(stdin, stdout);
    const config = plugin.readConfig({ ASK_USER_CONSOLE: "1", ASK_USER_CONSOLE_NAME: "alice" });
    const instance = await plugin.create({
      config,
      logger: { warn: () => undefined, error: () => undefined },
      coordination: createMemoryCoordination(),
      instanceId: "test",
    });
    expect(instance.describe).toBe("console (answering as alice)");
    const askUser = createAskUser({ store: createMemoryStore(), channels: [instance] });
    await instance.start(askUser);
    const pending = askUser.ask(input, { target: { channel: "console", conversation: "console" } });
    await expect.poll(() => printed).toContain("Where should I deploy?");
    stdin.write("2\n");
    const result = await pending;
    expect(result).toEqual({ status: "answered", answers: { answers: { deploy_target: ["Production"] } } });
    const [record] = await askUser.list();
    expect(record?.resolvedBy).toMatchObject({ userId: "alice" });
    await askUser.close();
    await instance.stop();
  });

  it("runs as a script: the example file answers from stdin and prints the result", async () => {
    const script = fileURLToPath(new URL("../examples/console-ask.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      env: { ...process.env, ASK_USER_CONSOLE: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("Where should I deploy?") && !child.stdin.writableEnded) child.stdin.end("1\n");
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(out).toContain("Recorded: Staging (Recommended)");
    const json = out.split("\n").find((line) => line.startsWith("{"));
    expect(JSON.parse(json ?? "null")).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Staging (Recommended)"] } },
    });
  }, 30_000);
});
