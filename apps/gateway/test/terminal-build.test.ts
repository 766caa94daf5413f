import { describe, expect, it } from "vitest";
import { buildQuietly } from "../bin/build-quietly.js";

/** A node child running `code`. */
function node(code: string): [string, string[]] {
  return [process.execPath, ["-e", code]];
}

function collect() {
  let text = "";
  return { stream: { write: (chunk: string) => (text += chunk) }, text: () => text };
}

describe("the repository's scripts build without the task runner's chatter", () => {
  it("shows nothing of a build that succeeds quickly", async () => {
    const err = collect();
    const [command, args] = node("console.log('• Packages in scope: 9'); console.error('cache hit')");
    // A generous slowMs: a loaded machine must not make the quick build "slow".
    expect(await buildQuietly(command, args, { stderr: err.stream, slowMs: 60_000 })).toBe(0);
    expect(err.text()).toBe("");
  });

  it("shows the captured output of a failed build and exits with its code", async () => {
    const err = collect();
    const [command, args] = node("console.log('src/x.ts(1,1): error TS1005'); process.exit(4)");
    expect(await buildQuietly(command, args, { stderr: err.stream, slowMs: 60_000 })).toBe(4);
    expect(err.text()).toContain("src/x.ts(1,1): error TS1005\n");
    expect(err.text()).toMatch(/The build failed \(.+\): fix the errors above and run it again\.\n$/);
  });

  it("says it is building at once on a first start, and once a build takes long", async () => {
    const first = collect();
    const [command, args] = node("");
    expect(
      await buildQuietly(command, args, { stderr: first.stream, firstStart: true, slowMs: 60_000 }),
    ).toBe(0);
    expect(first.text()).toBe("building the gateway (first start, ~30 s)…\n");

    const slow = collect();
    const [sleeper, sleepArgs] = node("setTimeout(() => {}, 400)");
    expect(await buildQuietly(sleeper, sleepArgs, { stderr: slow.stream, slowMs: 50 })).toBe(0);
    expect(slow.text()).toBe("building the gateway…\n");
  });

  it("reports a build command that cannot run", async () => {
    const err = collect();
    expect(await buildQuietly("/nonexistent/turbo", [], { stderr: err.stream })).toBe(1);
    expect(err.text()).toContain("ENOENT");
  });
});
