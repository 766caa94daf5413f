import { describe, expect, it } from "vitest";
import { deployInput, type FakeGateway, startFakeGateway } from "./cli-fake-gateway.ts";
import { create, envFor, inputFile, run } from "./cli-run.ts";

/** What a terminal line starts with: back to its start, cleared. */
const CLEAR = "\r\x1b[2K";
const stagingAnswer = { deploy_target: ["Staging"] };
const answered = `${JSON.stringify({ status: "answered", answers: { answers: stagingAnswer } }, null, 2)}\n`;

/** Polls `check` every 20 ms until it is true; fails after 10 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${what} did not happen within 10 s`);
}

/** True once a long-poll (`?wait=`) of question `id` has reached the fake gateway `count` times. */
const polled =
  (gw: FakeGateway, id: string, count = 1) =>
  () =>
    gw.requests.filter((r) => r.path.startsWith(`/v1/questions/${id}?wait=`)).length >= count;

describe("ask-user wait", () => {
  it("waits on a question asked before and prints its result as ask does", async () => {
    const gw = await startFakeGateway();
    const { id } = await create(gw, { ...deployInput, target: "telegram:42" });
    const waiting = run(["wait", id], { env: envFor(gw) });
    await until(polled(gw, id), "the long-poll");
    gw.resolve(id, "answered", stagingAnswer);
    const { code, stdout, stderr } = await waiting;
    expect(code).toBe(0);
    expect(stdout).toBe(answered);
    expect(stderr).toMatch(
      new RegExp(
        `^Waiting for an answer to "Deploy" until (\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\d UTC \\(question ${id}\\)\\. Answer it in telegram:42`,
      ),
    );
  });

  it("prints the result of a question that has already ended at once, with ask's exit code", async () => {
    const gw = await startFakeGateway();
    const { id } = await create(gw, deployInput);
    gw.resolve(id, "skipped");
    expect(await run(["wait", id], { env: envFor(gw) })).toEqual({
      code: 3,
      stdout: `${JSON.stringify({ status: "no_answer", reason: "skipped" }, null, 2)}\n`,
      stderr: "",
    });
    expect(gw.requests.some((r) => r.path.includes("?wait="))).toBe(false);
  });

  it("names the unknown id and points to ask-user list", async () => {
    const gw = await startFakeGateway();
    expect(await run(["wait", "no-such-id"], { env: envFor(gw) })).toEqual({
      code: 1,
      stdout: "",
      stderr: `ask-user: no question with id no-such-id.\nRun "ask-user --url ${gw.url} list" to see the questions and their ids.\n`,
    });
    const missing = await run(["wait"], { env: envFor(gw) });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^ask-user: Missing question ID\.\n/);
  });

  it("takes an id that starts with '-' after '--', and says so when it is given without", async () => {
    const gw = await startFakeGateway();
    const id = "-hx2cG89YhQMdR0iP6kg"; // made before ids stopped starting with "-"
    const bare = await run(["wait", id], { env: envFor(gw) });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(
      /^ask-user: Unknown option '-x'\. A question id that starts with "-" goes after "--": -- -hx2cG89YhQMdR0iP6kg\n/,
    );
    expect(gw.requests).toEqual([]);
    const separated = await run(["wait", "--", id], { env: envFor(gw) });
    expect(separated.code).toBe(1);
    expect(separated.stderr).toContain(`no question with id ${id}.`);
  });

  it("stops waiting on Ctrl-C and leaves the question open", async () => {
    const gw = await startFakeGateway();
    const { id } = await create(gw, deployInput);
    let press: () => void = () => {};
    const waiting = run(["wait", id], {
      env: envFor(gw),
      onInterruptReady: (handler) => {
        press = handler;
      },
    });
    await until(polled(gw, id), "the long-poll");
    press();
    const { code, stdout, stderr } = await waiting;
    expect(code).toBe(130);
    expect(stdout).toBe("");
    expect(stderr).toContain(`Stopped waiting; question ${id} stays open`);
    expect(gw.questions.get(id)?.status).toBe("pending");
    expect(gw.requests.some((r) => r.method === "DELETE")).toBe(false);
  });

  it("says in its help that Ctrl-C does not cancel the question", async () => {
    const { code, stdout } = await run(["wait", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: ask-user wait ID/);
    expect(stdout).toContain("Ctrl-C stops waiting and leaves the question open: it does NOT cancel it");
  });
});

describe("waiting rides out a gateway that goes away and comes back", () => {
  it("ask: one line when the gateway goes, one when it is back, then the answer given meanwhile", async () => {
    const gw = await startFakeGateway();
    let seen = "";
    const asking = run(["ask", inputFile(deployInput)], {
      env: envFor(gw),
      onStderr: (text) => (seen = text),
    });
    await until(() => gw.questions.size === 1, "the question");
    const id = [...gw.questions.keys()][0] ?? "";
    await until(polled(gw, id), "the long-poll");
    await gw.down();
    gw.resolve(id, "answered", stagingAnswer); // stored while the gateway is away
    await until(() => seen.includes("gateway unreachable"), "the unreachable line");
    await new Promise((resolve) => setTimeout(resolve, 300)); // a retry may meet the closed port too
    await gw.up();
    const { code, stdout, stderr } = await asking;
    expect(code).toBe(0);
    expect(stdout).toBe(answered);
    const lines = stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^gateway unreachable \(connection lost\), retrying in 1 s…$/);
    expect(lines[2]).toMatch(/^reconnected to the gateway after \d+ s$/);
  });

  it("wait on a terminal: the lines go above the countdown, which goes on", async () => {
    const gw = await startFakeGateway();
    const { id } = await create(gw, deployInput);
    let seen = "";
    const waiting = run(["wait", id], { env: envFor(gw), isTTY: true, onStderr: (text) => (seen = text) });
    await until(polled(gw, id), "the long-poll");
    await gw.down();
    await until(() => seen.includes("gateway unreachable"), "the unreachable line");
    await gw.up();
    await until(polled(gw, id, 2), "the long-poll after the reconnect");
    gw.resolve(id, "answered", stagingAnswer);
    const { code, stdout, stderr } = await waiting;
    expect(code).toBe(0);
    expect(stdout).toBe(answered);
    // Each row: countdown frames, each after a line clear; the note last on its row.
    const rows = stderr.split("\n").map((row) => row.split(CLEAR));
    expect(rows[1]?.at(-1)).toBe("gateway unreachable (connection lost), retrying in 1 s…");
    expect(rows[2]?.at(-1)).toMatch(/^reconnected to the gateway after \d+ s$/);
    expect(rows[3]?.[1]).toMatch(/^⏳ Waiting for an answer to "Deploy" — 1[45]:\d\d left/);
    expect(stderr.endsWith(CLEAR)).toBe(true);
  });

  it("gives up once the deadline has passed by a minute, and says how to wait again", async () => {
    const gw = await startFakeGateway();
    const { id } = await create(gw, deployInput);
    const stored = gw.questions.get(id);
    if (stored) stored.expiresAt = Date.now() - 61_000; // still pending: the fake never expires it
    const waiting = run(["wait", id], { env: envFor(gw) });
    await until(polled(gw, id), "the long-poll");
    const started = Date.now();
    await gw.down();
    const { code, stdout, stderr } = await waiting;
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain(`The connection to the ask-user gateway at ${gw.url} failed`);
    expect(stderr).toContain(
      `Question ${id} may still be answered: "ask-user --url ${gw.url} wait ${id}" waits on it again.`,
    );
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
