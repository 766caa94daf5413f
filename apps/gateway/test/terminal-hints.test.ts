import { describe, expect, it } from "vitest";
import { cliCommand } from "../src/cli/invocation.ts";
import { banner } from "../src/start.ts";
import { deployInput, startFakeGateway } from "./cli-fake-gateway.ts";
import { create, envFor, run } from "./cli-run.ts";
import { testGateway } from "./harness.ts";

describe("hints print a command that runs as printed", () => {
  it("says `pnpm ask-user` when started by the repository's script, with --url off the default port", () => {
    expect(cliCommand({})).toBe("ask-user");
    expect(cliCommand({}, "http://127.0.0.1:7310")).toBe("ask-user");
    expect(cliCommand({}, "http://127.0.0.1:7310/")).toBe("ask-user");
    expect(cliCommand({ ASK_USER_VIA_PNPM: "1" }, "http://127.0.0.1:7310")).toBe("pnpm ask-user");
    expect(cliCommand({ ASK_USER_VIA_PNPM: "1" }, "http://127.0.0.1:7311")).toBe(
      "pnpm ask-user --url http://127.0.0.1:7311",
    );
    expect(cliCommand({ ASK_USER_VIA_PNPM: "0" }, "http://127.0.0.1:7311")).toBe(
      "ask-user --url http://127.0.0.1:7311",
    );
  });

  it("show, wait and the unknown-id error name `pnpm ask-user --url …` under the repository's script", async () => {
    const gw = await startFakeGateway();
    const env = envFor(gw, { ASK_USER_VIA_PNPM: "1" });
    const { id } = await create(gw, deployInput);
    const shown = await run(["show", id], { env });
    expect(shown.stdout).toContain(
      `or run: pnpm ask-user --url ${gw.url} answer ${id} --json '{"deploy_target":["Staging"]}'`,
    );
    const missing = await run(["wait", "nope"], { env });
    expect(missing.stderr).toContain(`Run "pnpm ask-user --url ${gw.url} list" to see the questions`);
  });
});

describe("the start banner's commands", () => {
  it("say `pnpm ask` under the repository's `pnpm start`, the installed `ask-user` otherwise", async () => {
    const gw = await testGateway();
    const repo = banner(gw, { viaPnpm: true });
    expect(repo).toContain("\n    pnpm ask examples/deploy-target.json\n");
    expect(repo).toContain("\n    pnpm ask-user answer\n");
    const installed = banner(gw, { viaPnpm: false });
    expect(installed).toContain("\n    ask-user ask question.json");
    expect(installed).toContain("\n    ask-user answer\n");
    expect(installed).not.toContain("pnpm");
  });
});
