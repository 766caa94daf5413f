import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AskUserBroker, Channel, DeliverRequest, FinalizeRequest } from "@ask-user/core";
import { createSqliteStore } from "@ask-user/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { runStandalone, type StandaloneIo, type StandaloneOptions, type StartContext } from "../src/index.ts";

const QUESTION = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging (Recommended)" }, { label: "Production" }],
    },
  ],
};
const USAGE = "Usage: test --target ROOM [--creator USER] FILE|-";
const ROOM = "room-1";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ask-user-runner-"));
  dirs.push(dir);
  return dir;
}

/** A channel that records what it is given; `reply` answers through the broker once delivered. */
function testChannel() {
  const deliveries: DeliverRequest[] = [];
  const finalized: FinalizeRequest[] = [];
  let context: StartContext | undefined;
  let stops = 0;
  let delivered: (request: DeliverRequest) => void = () => undefined;
  const firstDelivery = new Promise<DeliverRequest>((resolve) => {
    delivered = resolve;
  });
  const channel: Channel = {
    name: "test",
    capabilities: { buttons: false, edit: true, privateNotices: false },
    isDirect: () => true, // the test room is a one-to-one chat
    async deliver(request) {
      deliveries.push(request);
      delivered(request);
      return { messageId: `m${deliveries.length}` };
    },
    async finalize(request) {
      finalized.push(request);
    },
    async notify() {
      return undefined;
    },
  };
  return {
    deliveries,
    finalized,
    firstDelivery,
    stops: () => stops,
    async start(started: StartContext) {
      context = started;
      return {
        channel,
        describe: "test (fake)",
        stop: async () => {
          stops++;
        },
      };
    },
    broker(): AskUserBroker {
      if (!context) throw new Error("not started");
      return context.broker();
    },
    async reply(text: string, userId = "u1") {
      await firstDelivery;
      return this.broker().handleReply({ channel: "test", conversation: ROOM, userId, text, replyTo: "m1" });
    },
  };
}

function streams(stdin = "", onInterrupt?: StandaloneIo["onInterrupt"]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: StandaloneIo = {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    stdin: (async function* () {
      yield Buffer.from(stdin);
    })(),
    ...(onInterrupt ? { onInterrupt } : {}),
  };
  return { io, out: () => out.join(""), err: () => err.join("") };
}

async function setup(
  argv: string[],
  stdin = JSON.stringify(QUESTION),
  extra: Partial<StandaloneOptions> = {},
) {
  const dir = await tempDir();
  const db = join(dir, "test.db");
  const channel = testChannel();
  let interrupt: () => void = () => undefined;
  let interruptRemoved = false;
  const { io, out, err } = streams(stdin, (handler) => {
    interrupt = handler;
    return () => {
      interruptRemoved = true;
    };
  });
  const exit = runStandalone({
    argv,
    env: { ASK_USER_DB: db },
    io,
    platform: "test",
    usage: USAGE,
    validTarget: (conversation) => conversation.startsWith("room-"),
    start: (context) => channel.start(context),
    ...extra,
  });
  return {
    dir,
    db,
    channel,
    exit,
    out,
    err,
    interrupt: () => interrupt(),
    interruptRemoved: () => interruptRemoved,
  };
}

describe("runStandalone", () => {
  it("asks the question in the file, prints the answer and exits 0", async () => {
    const dir = await tempDir();
    const file = join(dir, "question.json");
    await writeFile(file, JSON.stringify(QUESTION));
    const run = await setup(["--target", ROOM, "--creator", "u1", file], "");
    const delivery = await run.channel.firstDelivery;
    expect(delivery.record.target).toEqual({ channel: "test", conversation: ROOM });
    expect(delivery.record.creator).toEqual({ channel: "test", userId: "u1" });
    expect((await run.channel.reply("Production", "u2")).kind).toBe("ignored"); // not the creator
    expect((await run.channel.reply("Production")).kind).toBe("answered");

    expect(await run.exit).toBe(0);
    expect(JSON.parse(run.out())).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(run.err()).toBe(`test (fake): waiting for an answer in ${ROOM}…\n`);
    expect(run.channel.stops()).toBe(1);
    expect(run.interruptRemoved()).toBe(true);
    const store = createSqliteStore({ path: run.db });
    try {
      expect((await store.list()).map((record) => record.status)).toEqual(["answered"]);
    } finally {
      await store.close();
    }
  });

  it("prints the usage for --help and -h on stdout and exits 0", async () => {
    for (const flag of ["--help", "-h"]) {
      const run = await setup([flag]);
      expect(await run.exit).toBe(0);
      expect(run.out()).toBe(`${USAGE}\n`);
      expect(run.err()).toBe("");
    }
  });

  it("exits 2 with the issue paths for bad input, and with the reason for unreadable input", async () => {
    const invalid = await setup(
      ["--target", ROOM, "-"],
      JSON.stringify({ questions: [{ id: "x", header: "H", question: "Q?", options: [{ label: "A" }] }] }),
    );
    expect(await invalid.exit).toBe(2);
    expect(invalid.err()).toMatch(
      /^stdin is not valid ask_user input:\n- questions\[0\]\.options: Give 2-4 options/,
    );
    expect(invalid.channel.stops()).toBe(0);
    expect(invalid.channel.deliveries).toEqual([]);

    const notJson = await setup(["--target", ROOM, "-"], "{ not json");
    expect(await notJson.exit).toBe(2);
    expect(notJson.err()).toMatch(/^Cannot read stdin: /);

    const missing = await setup(["--target", ROOM, join(invalid.dir, "nope.json")]);
    expect(await missing.exit).toBe(2);
    expect(missing.err()).toContain("Cannot read");
    expect(missing.err()).toContain("nope.json");
  });

  it("exits 2 with the usage for a missing or invalid target and a bad command line", async () => {
    const cases: Array<[string[], string]> = [
      [["-"], "--target is required."],
      [["--target", "lobby", "-"], "--target lobby is not a test conversation."],
      [["--target", ROOM], 'Give one FILE, or "-" for stdin.'],
      [["--target", ROOM, "a.json", "b.json"], 'Give one FILE, or "-" for stdin.'],
      [["--target", ROOM, "--verbose", "-"], "--verbose"],
    ];
    for (const [argv, reason] of cases) {
      const run = await setup(argv);
      expect(await run.exit).toBe(2);
      expect(run.err()).toContain(reason);
      expect(run.err()).toContain(USAGE);
      expect(run.out()).toBe("");
    }
    const thrown = await setup(["--target", "room-x", "-"], undefined, {
      validTarget: () => {
        throw new Error("room-x is closed.");
      },
    });
    expect(await thrown.exit).toBe(2);
    expect(thrown.err()).toBe(`room-x is closed.\n\n${USAGE}\n`);
  });

  it("exits 3 when the question is skipped", async () => {
    const run = await setup(["--target", ROOM, "-"]);
    await run.channel.reply("skip");
    expect(await run.exit).toBe(3);
    expect(JSON.parse(run.out())).toEqual({ status: "no_answer", reason: "skipped" });
  });

  it("cancels the question on Ctrl-C and exits 130", async () => {
    const run = await setup(["--target", ROOM, "-"]);
    await run.channel.firstDelivery;
    run.interrupt();
    expect(await run.exit).toBe(130);
    expect(JSON.parse(run.out())).toEqual({ status: "no_answer", reason: "cancelled" });
    expect(run.channel.finalized.map((request) => request.record.status)).toEqual(["cancelled"]);
    expect(run.channel.stops()).toBe(1);
    const store = createSqliteStore({ path: run.db });
    try {
      expect((await store.list()).map((record) => record.status)).toEqual(["cancelled"]);
    } finally {
      await store.close();
    }
  });

  it("exits 1 with the message when the environment is incomplete or the channel does not start", async () => {
    let started = false;
    const env = await setup(["--target", ROOM, "-"], JSON.stringify({ questions: [] }), {
      readEnv: () => {
        throw new Error("TEST_TOKEN is required.");
      },
      start: async () => {
        started = true;
        throw new Error("unreachable");
      },
    });
    expect(await env.exit).toBe(1); // the environment is checked before the input is normalised
    expect(env.err()).toBe("ask-user test: TEST_TOKEN is required.\n");
    expect(started).toBe(false);

    const failing = await setup(["--target", ROOM, "-"], undefined, {
      start: async () => {
        throw new Error("401 Unauthorized: wrong token");
      },
    });
    expect(await failing.exit).toBe(1);
    expect(failing.err()).toBe("ask-user test: 401 Unauthorized: wrong token\n");
    expect(failing.out()).toBe("");
    expect(failing.interruptRemoved()).toBe(true);
  });

  it("uses the platform's waiting line and reports a failing stop without losing the result", async () => {
    const channel = testChannel();
    const run = await setup(["--target", ROOM, "-"], undefined, {
      waitingLine: (describe) => `${describe} is waiting`,
      start: async (context) => ({
        ...(await channel.start(context)),
        stop: async () => {
          throw new Error("socket already closed");
        },
      }),
    });
    await channel.reply("1");
    expect(await run.exit).toBe(0);
    expect(run.err()).toBe(
      'test (fake) is waiting\n[ask-user test] warn could not stop test {"err":"socket already closed"}\n',
    );
  });
});
