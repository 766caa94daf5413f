import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type AskUserBroker,
  type ChannelPlugin,
  InvalidChannelConfigError,
  readVariable,
  requiredVariablesSet,
} from "@ask-user/core";
import type { DeliverRequest, FinalizeRequest } from "@ask-user/core/channel";
import { createSqliteStore } from "@ask-user/sqlite";
import { describe, expect, it } from "vitest";
import { DEPLOY, freePort, run, tempDir } from "./helpers.ts";

const ROOM = "room-1";

/**
 * A channel plugin written the way a channel package writes one: "room" is on when ROOM_TOKEN is set,
 * records what it delivers, and takes replies from `reply()` or, with ROOM_PORT, on its webhook.
 */
function roomPlugin(options: { stopFails?: boolean; createFails?: string } = {}) {
  const deliveries: DeliverRequest[] = [];
  const finalized: FinalizeRequest[] = [];
  const steps: string[] = [];
  let broker: AskUserBroker | undefined;
  let delivered: () => void = () => undefined;
  const firstDelivery = new Promise<void>((resolve) => {
    delivered = resolve;
  });
  const plugin: ChannelPlugin<{ token: string; port: number | undefined }> = {
    name: "room",
    title: "Room",
    variables: [
      { name: "ROOM_TOKEN", description: "The room's token", required: true, secret: true },
      { name: "ROOM_PORT", description: "Where its webhook is served (default: none)" },
    ],
    enabled: (env) => requiredVariablesSet(plugin, env),
    readConfig(env) {
      const token = readVariable(env, "ROOM_TOKEN");
      const port = readVariable(env, "ROOM_PORT");
      const problems: string[] = [];
      if (!token) problems.push("ROOM_TOKEN is required.");
      if (port !== undefined && !/^\d+$/.test(port)) problems.push("ROOM_PORT must be a port number.");
      if (problems.length > 0) throw new InvalidChannelConfigError("room", problems);
      return { token: token ?? "", port: port === undefined ? undefined : Number(port) };
    },
    parseConversation: (conversation) => (conversation.startsWith("room-") ? conversation : undefined),
    async create({ config }) {
      steps.push("create");
      if (options.createFails) throw new Error(options.createFails);
      return {
        name: "room",
        capabilities: { buttons: false, edit: true, privateNotices: false },
        isDirect: () => true,
        async deliver(request) {
          deliveries.push(request);
          delivered();
          return { messageId: `m${deliveries.length}` };
        },
        async finalize(request) {
          finalized.push(request);
        },
        notify: async () => undefined,
        describe: "room (test)",
        ...(config.port === undefined
          ? {}
          : { listen: { host: "127.0.0.1", port: config.port, paths: ["/channels/room"] } }),
        async handleWebhook(request) {
          if (!broker) return new Response(null, { status: 503 });
          const { userId, text } = (await request.json()) as { userId: string; text: string };
          const outcome = await broker.handleReply({ channel: "room", conversation: ROOM, userId, text });
          return Response.json({ outcome: outcome.kind });
        },
        async start(ready) {
          steps.push("start");
          broker = ready;
        },
        async stop() {
          steps.push("stop");
          if (options.stopFails) throw new Error("socket already closed");
        },
      };
    },
  };
  return {
    plugin: plugin as ChannelPlugin,
    deliveries,
    finalized,
    steps,
    firstDelivery,
    async reply(text: string, userId = "u1") {
      await firstDelivery;
      if (!broker) throw new Error("not initialised");
      return broker.handleReply({ channel: "room", conversation: ROOM, userId, text, replyTo: "m1" });
    },
  };
}

const ENV = { ROOM_TOKEN: "t0k3n" };

async function statuses(db: string): Promise<string[]> {
  const store = createSqliteStore({ path: db });
  try {
    return (await store.list()).map((record) => record.status);
  } finally {
    await store.close();
  }
}

describe("runStandalone", () => {
  it("asks the question in the file, prints the answer and exits 0", async () => {
    const file = join(await tempDir(), "question.json");
    await writeFile(file, JSON.stringify(DEPLOY));
    const room = roomPlugin();
    const runner = await run(room.plugin, ["--target", ROOM, "--creator", "u1", file], ENV, "");
    await room.firstDelivery;
    expect(room.deliveries[0]?.record.target).toEqual({ channel: "room", conversation: ROOM });
    expect(room.deliveries[0]?.record.creator).toEqual({ channel: "room", userId: "u1" });
    // Not the creator: a reply to the prompt is refused with the reason (it waits for the prompt's id to be recorded).
    expect((await room.reply("Production", "u2")).kind).toBe("refused");
    expect((await room.reply("Production")).kind).toBe("answered");

    expect(await runner.exit).toBe(0);
    expect(JSON.parse(runner.out())).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(runner.err()).toBe(`room (test): waiting for an answer in ${ROOM}…\n`);
    expect(room.steps).toEqual(["create", "start", "stop"]);
    expect(runner.interruptRemoved()).toBe(true);
    expect(await statuses(runner.db)).toEqual(["answered"]);
  });

  it("prints the usage, generated from the plugin's variables, for --help and -h and exits 0", async () => {
    for (const flag of ["--help", "-h"]) {
      const runner = await run(roomPlugin().plugin, [flag], {});
      expect(await runner.exit).toBe(0);
      expect(runner.out()).toBe(
        [
          "Usage: ask-user-channel room --target CONVERSATION [--creator USER_ID] FILE|-",
          "",
          'Asks the questions in FILE (ask_user tool input as JSON; "-" reads stdin) in Room alone and',
          "prints the result JSON. With --creator, only that user may answer (use it in group chats).",
          "",
          "Environment:",
          "  ROOM_TOKEN       The room's token (required)",
          "  ROOM_PORT        Where its webhook is served (default: none)",
          "  ASK_USER_DB      The SQLite file that keeps the question (default .ask-user/room.db)",
          "  ASK_USER_LOCALE  The language of the prompt: en or de (default en)",
          "",
          "Exit codes: 0 answered · 3 no answer · 2 bad input · 1 failure · 130 interrupted.",
          "",
        ].join("\n"),
      );
      expect(runner.err()).toBe("");
    }
  });

  it("exits 2 with the usage for a missing or foreign target and a bad command line", async () => {
    const cases: Array<[string[], string]> = [
      [["-"], "--target is required."],
      [["--target", "lobby", "-"], "--target lobby is not a Room conversation."],
      [["--target", ROOM], 'Give one FILE, or "-" for stdin.'],
      [["--target", ROOM, "a.json", "b.json"], 'Give one FILE, or "-" for stdin.'],
      [["--target", ROOM, "--verbose", "-"], "--verbose"],
    ];
    for (const [argv, reason] of cases) {
      const room = roomPlugin();
      const runner = await run(room.plugin, argv, ENV);
      expect(await runner.exit).toBe(2);
      expect(runner.err()).toContain(reason);
      expect(runner.err()).toContain("Usage: ask-user-channel room --target CONVERSATION");
      expect(runner.out()).toBe("");
      expect(room.steps).toEqual([]);
    }
  });

  it("exits 2 with the issue paths for bad input, and with the reason for unreadable input", async () => {
    const room = roomPlugin();
    const bad = { questions: [{ id: "x", header: "H", question: "Q?", options: [{ label: "A" }] }] };
    const invalid = await run(room.plugin, ["--target", ROOM, "-"], ENV, JSON.stringify(bad));
    expect(await invalid.exit).toBe(2);
    expect(invalid.err()).toMatch(/^stdin is not valid ask_user input:\n- questions\[0\]\.options: /);
    expect(room.steps).toEqual([]);

    const notJson = await run(room.plugin, ["--target", ROOM, "-"], ENV, "{ not json");
    expect(await notJson.exit).toBe(2);
    expect(notJson.err()).toMatch(/^Cannot read stdin: /);

    const missing = await run(room.plugin, ["--target", ROOM, "/nowhere/nope.json"], ENV);
    expect(await missing.exit).toBe(2);
    expect(missing.err()).toMatch(/^Cannot read \/nowhere\/nope\.json: .*no such file/);
  });

  it("exits 1 with every configuration problem before anything starts, and when the channel can't start", async () => {
    const room = roomPlugin();
    const unset = await run(room.plugin, ["--target", ROOM, "-"], { ROOM_PORT: "http" }, "{}");
    expect(await unset.exit).toBe(1); // the configuration is checked before the input is normalised
    expect(unset.err()).toBe(
      "ask-user room: invalid configuration:\n- ROOM_TOKEN is required.\n- ROOM_PORT must be a port number.\n",
    );
    expect(room.steps).toEqual([]);

    const failing = roomPlugin({ createFails: "401 Unauthorized: check ROOM_TOKEN" });
    const refused = await run(failing.plugin, ["--target", ROOM, "-"], ENV);
    expect(await refused.exit).toBe(1);
    expect(refused.err()).toBe("ask-user room: 401 Unauthorized: check ROOM_TOKEN\n");
    expect(refused.out()).toBe("");
    expect(refused.interruptRemoved()).toBe(true);
  });

  it("exits 3 when the question is skipped", async () => {
    const room = roomPlugin();
    const runner = await run(room.plugin, ["--target", ROOM, "-"], ENV);
    await room.reply("skip");
    expect(await runner.exit).toBe(3);
    expect(JSON.parse(runner.out())).toEqual({ status: "no_answer", reason: "skipped" });
  });

  it("cancels the question on Ctrl-C and exits 130", async () => {
    const room = roomPlugin();
    const runner = await run(room.plugin, ["--target", ROOM, "-"], ENV);
    await room.firstDelivery;
    runner.interrupt();
    expect(await runner.exit).toBe(130);
    expect(JSON.parse(runner.out())).toEqual({ status: "no_answer", reason: "cancelled" });
    expect(room.finalized.map((request) => request.record.status)).toEqual(["cancelled"]);
    expect(room.steps).toEqual(["create", "start", "stop"]);
    expect(await statuses(runner.db)).toEqual(["cancelled"]);
  });

  it("serves the channel's webhook on its listen address, at its paths only, until the end", async () => {
    const port = await freePort();
    const room = roomPlugin();
    const runner = await run(room.plugin, ["--target", ROOM, "-"], { ...ENV, ROOM_PORT: String(port) });
    await room.firstDelivery;
    const url = `http://127.0.0.1:${port}/channels/room`;
    expect(runner.err()).toContain(`room: the webhook is served at ${url}\n`);
    const post = (at: string) =>
      fetch(at, { method: "POST", body: JSON.stringify({ userId: "u1", text: "1" }) });
    expect((await post(`http://127.0.0.1:${port}/elsewhere`)).status).toBe(404);
    const reply = await post(url);
    expect(await reply.json()).toEqual({ outcome: "answered" });
    expect(await runner.exit).toBe(0);
    expect(JSON.parse(runner.out()).answers.answers).toEqual({ deploy_target: ["Staging (Recommended)"] });
    await expect(post(url)).rejects.toThrow();
  });

  it("exits 1 when the listen port is taken", async () => {
    const port = await freePort();
    const first = roomPlugin();
    const holder = await run(first.plugin, ["--target", ROOM, "-"], { ...ENV, ROOM_PORT: String(port) });
    await first.firstDelivery;
    const second = await run(roomPlugin().plugin, ["--target", ROOM, "-"], {
      ...ENV,
      ROOM_PORT: String(port),
    });
    expect(await second.exit).toBe(1);
    expect(second.err()).toContain("EADDRINUSE");
    holder.interrupt();
    expect(await holder.exit).toBe(130);
  });

  it("reports a failing stop without losing the result", async () => {
    const room = roomPlugin({ stopFails: true });
    const runner = await run(room.plugin, ["--target", ROOM, "-"], ENV);
    await room.reply("1");
    expect(await runner.exit).toBe(0);
    expect(runner.err()).toBe(
      `room (test): waiting for an answer in ${ROOM}…\n[ask-user room] warn could not stop room {"err":"Error: socket already closed"}\n`,
    );
  });
});
