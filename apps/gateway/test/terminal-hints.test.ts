import { describe, expect, it } from "vitest";
import { cliCommand } from "../src/cli/invocation.ts";
import { deployInput, startFakeGateway } from "./cli-fake-gateway.ts";
import { create, envFor, run } from "./cli-run.ts";

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
