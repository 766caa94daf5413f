import { describe, expect, it } from "vitest";
import { deployInput, startFakeGateway } from "./cli-fake-gateway.ts";
import { create, envFor, run } from "./cli-run.ts";

describe("list, show, answer, skip, cancel", () => {
  it("lists questions as a table with the time left or the answer, or as JSON with -o json", async () => {
    const gw = await startFakeGateway();
    const env = envFor(gw);
    const first = await create(gw, { ...deployInput, runId: "run-1" });
    const second = await create(gw, { ...deployInput, runId: "run-2" });
    gw.resolve(second.id, "answered", { deploy_target: ["Production"] });

    const table = await run(["list"], { env });
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID +STATUS +QUESTION +LEFT \/ ANSWER$/);
    expect(lines[1]).toMatch(
      new RegExp(`^${first.id} +pending +Deploy: Where should I deploy\\? +15:00 left$`),
    );
    expect(lines[2]).toMatch(
      new RegExp(`^${second.id} +answered +Deploy: Where should I deploy\\? +Production$`),
    );

    const pending = await run(["list", "--status", "pending", "-o", "json"], { env });
    expect(JSON.parse(pending.stdout).questions.map((q: { id: string }) => q.id)).toEqual([first.id]);
    const byRun = await run(["list", "--run-id", "run-2", "--output=json"], { env });
    expect(JSON.parse(byRun.stdout).questions.map((q: { id: string }) => q.id)).toEqual([second.id]);
    expect(await run(["list", "--status", "skipped"], { env })).toMatchObject({
      code: 0,
      stdout: "No skipped questions.\n",
    });

    // --json gives answers (to `answer`) and nothing else.
    const jsonFlag = await run(["list", "--json"], { env });
    expect(jsonFlag.code).toBe(2);
    expect(jsonFlag.stderr).toMatch(
      /^ask-user: --json gives the answers to `ask-user answer`; for JSON output use -o json\./,
    );
    expect((await run(["list", "-o", "yaml"], { env })).stderr).toContain("--output must be text or json");

    const badStatus = await run(["list", "--status", "open"], { env });
    expect(badStatus.code).toBe(2);
    expect(badStatus.stderr).toContain("--status must be one of pending, answered");
  });

  it("shows a question with its options and where to answer it; an unknown id is a clear error", async () => {
    const gw = await startFakeGateway();
    const env = envFor(gw);
    const pending = await create(gw, deployInput);
    const expired = await create(gw, { ...deployInput, target: "telegram:42", runId: "run-1" });
    gw.resolve(expired.id, "expired");

    const shown = await run(["show", pending.id], { env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(
      new RegExp(
        `^⏳ Question ${pending.id}: pending, 1[45]:\\d\\d left \\(until (\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\d UTC\\)\nno target · asked`,
      ),
    );
    expect(shown.stdout).toContain(
      "Deploy: Where should I deploy?\n   1. Staging — Safe\n   2. Production\n",
    );
    // No target: no chat got it, so the web panel and the terminal are where to answer.
    expect(shown.stdout).toContain(
      `No chat channel got it: answer it in the web panel at ${gw.url}/, or run: ask-user --url ${gw.url} answer ${pending.id} --json '{"deploy_target":["Staging"]}'`,
    );
    expect(shown.stdout).not.toContain("in the chat");
    const json = await run(["show", pending.id, "-o", "json"], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ id: pending.id, status: "pending" });
    expect((await run(["show", pending.id, "--json"], { env })).code).toBe(2);

    const ended = await run(["show", expired.id], { env });
    expect(ended.stdout).toMatch(
      /: expired at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\ntarget telegram:42 · run run-1 · asked/,
    );
    expect(ended.stdout).toContain("⌛");

    expect(await run(["show", "nope"], { env })).toEqual({
      code: 1,
      stdout: "",
      stderr: `ask-user: no question with id nope.\nRun "ask-user --url ${gw.url} list" to see the questions and their ids.\n`,
    });
  });

  it("answers, skips and cancels, and reports a question that no longer waits with its reason", async () => {
    const gw = await startFakeGateway();
    const env = envFor(gw);
    const [a, b, c] = [
      (await create(gw, deployInput)).id,
      (await create(gw, deployInput)).id,
      (await create(gw, deployInput)).id,
    ];

    const answered = await run(
      ["answer", a, "--json", '{"answers":{"deploy_target":["Staging (Recommended)"]}}'],
      {
        env,
      },
    );
    expect(answered.code).toBe(0);
    expect(answered.stdout).toContain(`Question ${a}: answered`);
    expect(answered.stdout).toContain("✅ Deploy: Staging (Recommended)");
    expect(gw.questions.get(a)?.resolvedBy?.channel).toBe("cli");

    const again = await run(["answer", a, "--json", '{"deploy_target":["Production"]}'], { env });
    expect(again).toEqual({ code: 1, stdout: "", stderr: "This question was already answered.\n" });

    const wrongKey = await run(["answer", b, "--json", '{"region":["EU"]}'], { env });
    expect(wrongKey.code).toBe(2);
    expect(wrongKey.stderr).toContain('  answers.region: There is no question "region".');

    const badJson = await run(["answer", b, "--json", "Staging"], { env });
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toContain("--json is not valid JSON");
    // Not a terminal: nothing to pick with, so the answers must come with --json.
    expect((await run(["answer", b], { env })).stderr).toContain(
      "Missing --json with the answers (run it in a terminal to pick and answer interactively).",
    );

    const skipped = await run(["skip", b], { env });
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).toContain("⏭");
    expect(gw.questions.get(b)?.status).toBe("skipped");

    const cancelled = await run(["cancel", c, "-o", "json"], { env });
    expect(cancelled.code).toBe(0);
    expect(JSON.parse(cancelled.stdout)).toMatchObject({
      id: c,
      status: "cancelled",
      result: { reason: "cancelled" },
    });
    expect(await run(["cancel", c], { env })).toEqual({
      code: 1,
      stdout: "",
      stderr: "This question was cancelled.\n",
    });
    expect(await run(["skip", "nope"], { env })).toMatchObject({
      code: 1,
      stdout: "",
      stderr: expect.stringMatching(/^ask-user: no question with id nope\.\n/),
    });
  });
});
