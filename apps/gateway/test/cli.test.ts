import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { closedPortUrl, deployInput, startFakeGateway } from "./cli-fake-gateway.ts";
import { envFor, inputFile, run } from "./cli-run.ts";

const stagingAnswer = { deploy_target: ["Staging"] };

describe("ask-user --help", () => {
  it("lists every command with one line each", async () => {
    const { code, stdout } = await run(["--help"]);
    expect(code).toBe(0);
    for (const name of ["start", "ask", "wait", "list", "show", "answer", "skip", "cancel", "mcp"]) {
      expect(stdout).toMatch(new RegExp(`^ {2}${name} +\\S.*$`, "m"));
    }
    expect(stdout).toContain("ASK_USER_TOKEN");
  });

  it.each(["start", "ask", "wait", "list", "show", "answer", "skip", "cancel", "mcp"])(
    "prints the usage of %s with --help",
    async (name) => {
      const { code, stdout, stderr } = await run([name, "--help"]);
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^Usage: ask-user ${name}\\b`));
      expect(stdout).toContain("-h, --help");
      expect(stderr).toBe("");
    },
  );

  it("refuses an unknown command, an unknown flag and a missing command with the usage and exit 2", async () => {
    const unknown = await run(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^ask-user: Unknown command: frobnicate\n/);
    expect(unknown.stderr).toContain("Commands:");

    const flag = await run(["list", "--frob"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^ask-user: Unknown option '--frob'\n/);
    expect(flag.stderr).toContain("Usage: ask-user list");

    const global = await run(["--verbose", "list"]);
    expect(global).toMatchObject({ code: 2, stdout: "" });
    expect(global.stderr).toMatch(/^ask-user: Unknown option: --verbose/);

    expect((await run([])).code).toBe(2);
  });

  it("suggests the command a typo was meant to be", async () => {
    const typo = await run(["wiat", "abc"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^ask-user: Unknown command: wiat\. Did you mean "wait"\?\n/);
    expect((await run(["lsit"])).stderr).toMatch(
      /^ask-user: Unknown command: lsit\. Did you mean "list"\?\n/,
    );
    expect((await run(["help", "anwser"])).stderr).toMatch(/Did you mean "answer"\?/);
  });
});

describe("ask-user ask", () => {
  it("prints the answer as JSON, exits 0 and says where to answer while it waits", async () => {
    const gw = await startFakeGateway();
    gw.onCreate = (q) => setTimeout(() => gw.resolve(q.id, "answered", stagingAnswer), 100);
    const file = inputFile(deployInput);
    const { code, stdout, stderr } = await run(
      ["ask", file, "--target", "telegram:42", "--timeout", "120", "--run-id", "run-7"],
      { env: envFor(gw) },
    );
    expect(code).toBe(0);
    expect(stdout).toBe(
      `${JSON.stringify({ status: "answered", answers: { answers: stagingAnswer } }, null, 2)}\n`,
    );
    const [question] = [...gw.questions.values()];
    expect(question).toMatchObject({
      target: { channel: "telegram", conversation: "42" },
      runId: "run-7",
      prompt: { timeoutSeconds: 120 },
    });
    const id = question?.id ?? "";
    expect(stderr).toMatch(
      new RegExp(
        `^Waiting for an answer to "Deploy" until (\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\d UTC \\(question ${id}\\)\\. Answer it in telegram:42 or in the web panel at ${gw.url}/, or run`,
      ),
    );
    expect(stderr).toContain(`ask-user --url ${gw.url} answer ${id} --json '{"deploy_target":["Staging"]}'`);
    expect(stderr.split("\n").filter(Boolean)).toHaveLength(1);
  });

  it("reads the input from stdin with -", async () => {
    const gw = await startFakeGateway();
    gw.onCreate = (q) => setTimeout(() => gw.resolve(q.id, "answered", stagingAnswer), 50);
    const { code, stdout } = await run(["ask", "-"], { env: envFor(gw), stdin: JSON.stringify(deployInput) });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ status: "answered", answers: { answers: stagingAnswer } });
  });

  it("exits 3 with the no_answer result when the question expires", async () => {
    const gw = await startFakeGateway();
    gw.onCreate = (q) => setTimeout(() => gw.resolve(q.id, "expired"), 100);
    const { code, stdout } = await run(["ask", inputFile(deployInput)], { env: envFor(gw) });
    expect(code).toBe(3);
    expect(JSON.parse(stdout)).toEqual({ status: "no_answer", reason: "expired" });
  });

  it("lists every problem of bad input with its path and exits 2", async () => {
    const gw = await startFakeGateway();
    const bad = {
      questions: [{ id: "Bad Id", header: "Deploy", question: "Where?", options: [{ label: "Other" }] }],
    };
    const { code, stdout, stderr } = await run(["ask", inputFile(bad)], { env: envFor(gw) });
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^The gateway refused the input \(\d+ problems\):\n/);
    expect(stderr).toMatch(/^ {2}questions\[0\]\.id: .+$/m);
    expect(stderr).toMatch(/^ {2}questions\[0\]\.options.*: .+$/m);
    expect(gw.questions.size).toBe(0);
  });

  it("refuses unreadable files, invalid JSON and a malformed --target with exit 2", async () => {
    const gw = await startFakeGateway();
    const env = envFor(gw);
    const missing = await run(["ask", join(tmpdir(), "no-such-ask-user-input.json")], { env });
    expect(missing).toMatchObject({ code: 2, stdout: "" });
    expect(missing.stderr).toMatch(/^Cannot read .*no-such-ask-user-input\.json: no such file\.\n$/);

    const broken = await run(["ask", inputFile("{ questions: ")], { env });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain("is not valid JSON");

    const target = await run(["ask", inputFile(deployInput), "--target", "telegram"], { env });
    expect(target.code).toBe(2);
    expect(target.stderr).toContain("--target must look like CHANNEL:ID");

    const timeout = await run(["ask", inputFile(deployInput), "--timeout", "soon"], { env });
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain("--timeout must be a whole number of seconds");
    expect(gw.questions.size).toBe(0);
  });

  it("says where to answer, then shows a countdown with the full id on one terminal line, cleared at the end", async () => {
    const gw = await startFakeGateway();
    gw.onCreate = (q) => setTimeout(() => gw.resolve(q.id, "answered", stagingAnswer), 1300);
    const { code, stderr } = await run(["ask", inputFile(deployInput)], { env: envFor(gw), isTTY: true });
    expect(code).toBe(0);
    const id = [...gw.questions.keys()][0] ?? "";
    const [where, countdown = ""] = stderr.split("\n");
    // No target: no chat channel got it, so not "answer it in the chat".
    expect(where).toBe(
      `No chat channel got it: answer it in the web panel at ${gw.url}/, or run: ask-user --url ${gw.url} answer ${id} --json '{"deploy_target":["Staging"]}'`,
    );
    const frames = countdown.split("\r\x1b[2K").filter(Boolean);
    expect(frames.length).toBeGreaterThanOrEqual(2);
    for (const frame of frames) {
      expect(frame).toMatch(
        new RegExp(`^⏳ Waiting for an answer to "Deploy" — 1[45]:\\d\\d left \\(question ${id}\\)$`),
      );
    }
    expect(stderr.endsWith("\r\x1b[2K")).toBe(true);
    expect(stderr.split("\n")).toHaveLength(2);
  });

  it("cancels the question on Ctrl-C and exits 130", async () => {
    const gw = await startFakeGateway();
    let press: () => void = () => {};
    gw.onCreate = () => setTimeout(() => press(), 100);
    const { code, stdout, stderr } = await run(["ask", inputFile(deployInput)], {
      env: envFor(gw),
      onInterruptReady: (handler) => {
        press = handler;
      },
    });
    expect(code).toBe(130);
    const [question] = [...gw.questions.values()];
    expect(question?.status).toBe("cancelled");
    expect(gw.requests.some((r) => r.method === "DELETE")).toBe(true);
    expect(JSON.parse(stdout)).toEqual({ status: "no_answer", reason: "cancelled" });
    expect(stderr).toContain(`✖ Cancelled question ${question?.id}.`);
  });
});

describe("talking to the gateway", () => {
  it("says how to start a gateway when none answers, from --url and from ASK_USER_URL", async () => {
    const url = await closedPortUrl();
    const message = `No ask-user gateway answers at ${url}. Start one with \`pnpm start\` (or set ASK_USER_URL).\n`;
    expect(await run(["--url", url, "list"])).toEqual({ code: 1, stdout: "", stderr: message });
    expect(await run(["list"], { env: { ASK_USER_URL: url } })).toEqual({
      code: 1,
      stdout: "",
      stderr: message,
    });
    expect(await run(["ask", inputFile(deployInput), "--url", url])).toEqual({
      code: 1,
      stdout: "",
      stderr: message,
    });
  });

  it("says precisely what is wrong with a URL without http://, instead of 'fetch failed'", async () => {
    expect(await run(["list"], { env: { ASK_USER_URL: "127.0.0.1:7310" } })).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'ASK_USER_URL "127.0.0.1:7310" is not an http:// or https:// URL; did you mean http://127.0.0.1:7310?\n',
    });
    const local = await run(["--url", "localhost:7310", "show", "abc"]);
    expect(local.code).toBe(2);
    expect(local.stderr).toBe(
      '--url "localhost:7310" is not an http:// or https:// URL; did you mean http://localhost:7310?\n',
    );
    const ftp = await run(["ask", inputFile(deployInput), "--url", "ftp://gateway"]);
    expect(ftp.stderr).toBe(
      '--url "ftp://gateway" is not an http:// or https:// URL, e.g. http://127.0.0.1:7310.\n',
    );
    expect(ftp.code).toBe(2);
  });

  it("sends ASK_USER_TOKEN and explains a 401 without printing the token", async () => {
    const gw = await startFakeGateway({ token: "s3cret" });
    const without = await run(["list"], { env: envFor(gw) });
    expect(without.code).toBe(1);
    expect(without.stderr).toContain("Set ASK_USER_TOKEN to the gateway's token.");
    const wrong = await run(["list"], { env: envFor(gw, { ASK_USER_TOKEN: "guess-me" }) });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("ASK_USER_TOKEN does not match");
    expect(wrong.stderr).not.toContain("guess-me");
    const right = await run(["list"], { env: envFor(gw, { ASK_USER_TOKEN: "s3cret" }) });
    expect(right).toEqual({ code: 0, stdout: "No questions.\n", stderr: "" });
  });
});
