import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const coreDir = fileURLToPath(new URL("../packages/core/", import.meta.url));

describe("the README's library example", () => {
  it("asks over a text channel, takes a text reply and prints the answered result", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "examples/text-channel.ts"], {
      cwd: coreDir,
      timeout: 20_000,
    });
    expect(stdout).toContain(
      "Deploy: Where should I deploy?\n   1. Staging (Recommended) — Safe, reversible\n   2. Production",
    );
    expect(stdout).toContain('{"status":"answered","answers":{"answers":{"deploy_target":["Production"]}}}');
    expect(stdout).toContain("Recorded: Production");
  }, 30_000);
});
