/**
 * `logActivity`: one info line per question asked, answered and ended, and nothing made per event while
 * the level is above info (a level changed at run time is followed).
 */
import { type AskUserEvent, createAskUser, createMemoryStore } from "@ask-user/core";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { logActivity } from "../src/log.ts";
import { deployInput } from "./harness.ts";

function logged(level: string) {
  const lines: { msg: string; questionId?: string }[] = [];
  const logger = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { lines, logger };
}

describe("logActivity", () => {
  it("logs each question asked and answered at info", async () => {
    const broker = createAskUser({ store: createMemoryStore(), channels: [] });
    const { lines, logger } = logged("info");
    const stop = logActivity(broker, logger);
    const record = await broker.create(deployInput);
    await broker.answer(record.id, { deploy_target: ["Production"] }, { channel: "http", userId: "ops" });
    stop();
    expect(lines.map((line) => [line.questionId, line.msg])).toEqual([
      [record.id, 'asked "Deploy" on the web panel and API only (no target)'],
      [record.id, 'answered "Deploy" by ops via HTTP API: Production'],
    ]);
  });

  it("reads nothing of the event while the level is above info, and follows a level changed later", async () => {
    const listeners: ((event: AskUserEvent) => void)[] = [];
    const broker = {
      subscribe(listener: (event: AskUserEvent) => void) {
        listeners.push(listener);
        return () => listeners.splice(listeners.indexOf(listener), 1);
      },
    } as unknown as Parameters<typeof logActivity>[0];
    const real = createAskUser({ store: createMemoryStore(), channels: [] });
    const stored = await real.create(deployInput);
    let reads = 0;
    const record = new Proxy(stored, {
      get(target, key, receiver) {
        reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const { lines, logger } = logged("warn");
    const stop = logActivity(broker, logger);
    const emit = (type: AskUserEvent["type"]) => {
      for (const listener of listeners) listener({ type, record } as AskUserEvent);
    };
    emit("question.requested");
    emit("question.updated");
    expect(reads).toBe(0);
    expect(lines).toEqual([]);
    logger.level = "info";
    emit("question.requested");
    expect(reads).toBeGreaterThan(0);
    expect(lines.map((line) => line.msg)).toEqual([
      'asked "Deploy" on the web panel and API only (no target)',
    ]);
    stop();
    expect(listeners).toEqual([]);
  });
});
