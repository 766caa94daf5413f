import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFakeTelegram } from "@ask-user/testkit/telegram";
import { describe, expect, it } from "vitest";
import { main } from "../src/index.ts";
import { DEPLOY, onCleanup, streams, tempDir } from "./helpers.ts";

const bin = fileURLToPath(new URL("../bin/ask-user-channel.js", import.meta.url));
const ADA = { id: 42, first_name: "Ada", username: "ada" };

describe("the ask-user-channel command", () => {
  it("exits 2 with its usage when the channel is missing or unknown, and 0 for --help", async () => {
    for (const [argv, first] of [
      [[], "No channel given."],
      [["irc", "--target", "x", "-"], 'Unknown channel "irc".'],
    ] as const) {
      const io = streams();
      expect(await main([...argv], {}, io.io)).toBe(2);
      expect(io.err()).toBe(
        `${first}\n\nUsage: ask-user-channel <telegram|discord|slack> --target CONVERSATION [--creator USER_ID] FILE|-\n\n` +
          'Asks the questions in FILE (ask_user tool input as JSON; "-" reads stdin) in one chat platform alone and\n' +
          "prints the result JSON. `ask-user-channel <channel> --help` lists the channel's variables.\n",
      );
    }
    const help = streams();
    expect(await main(["--help"], {}, help.io)).toBe(0);
    expect(help.out()).toMatch(/^Usage: ask-user-channel <telegram\|discord\|slack> /);
  });

  it("loads each channel's plugin by name", async () => {
    for (const [name, variable] of [
      ["telegram", "TELEGRAM_BOT_TOKEN"],
      ["discord", "DISCORD_BOT_TOKEN"],
      ["slack", "SLACK_BOT_TOKEN"],
    ]) {
      const io = streams();
      expect(await main([name ?? "", "--help"], {}, io.io)).toBe(0);
      expect(io.out()).toMatch(new RegExp(`^Usage: ask-user-channel ${name} --target`));
      expect(io.out()).toContain(`  ${variable} `);
    }
  });

  it("runs as a process: asks in Telegram, prints the result JSON on stdout and exits 0", async () => {
    const tg = await createFakeTelegram({ botUsername: "ask_user_test_bot" });
    onCleanup(() => tg.close());
    const child = spawn(process.execPath, [bin, "telegram", "--target", String(ADA.id), "-"], {
      env: {
        ...process.env,
        TELEGRAM_BOT_TOKEN: tg.token,
        TELEGRAM_API_ROOT: tg.apiRoot,
        ASK_USER_DB: join(await tempDir(), "telegram.db"),
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    onCleanup(async () => child.exitCode === null && child.kill("SIGKILL"));
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdin.end(JSON.stringify(DEPLOY));
    const prompt = await tg.waitUntil(() => tg.messages(ADA.id).find((m) => m.from.is_bot), 20_000);
    await tg.user(ADA).press(ADA.id, prompt.message_id, "Production");
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(err).toBe("telegram (@ask_user_test_bot, long polling): waiting for an answer in 42…\n");
  }, 30_000);
});
