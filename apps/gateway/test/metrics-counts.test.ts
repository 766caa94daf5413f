/**
 * The counters of `createGatewayMetrics` over many events: one series per label set, in the order
 * first counted, the same numbers on every scrape (they are counted per event and read at scrape time).
 */
import { createAskUser, createMemoryStore } from "@ask-user/core";
import { describe, expect, it } from "vitest";
import { createGatewayMetrics } from "../src/metrics.ts";
import { deployInput } from "./harness.ts";

const operator = { channel: "http", userId: "ops" };

describe("the gateway's counters", () => {
  it("count every event once, whatever the number of scrapes", async () => {
    const broker = createAskUser({ store: createMemoryStore(), channels: [] });
    const metrics = createGatewayMetrics({ broker, defaultMetrics: false });
    const lines = async () =>
      (await metrics.scrape()).body
        .split("\n")
        .filter((line) => /^ask_user_(questions_created|questions_ended|answer_seconds_count)/.test(line));
    for (let i = 0; i < 30; i++) {
      const record = await broker.create(deployInput);
      if (i % 3 === 0) await broker.skip(record.id, operator);
      else if (i % 3 === 1) await broker.answer(record.id, { deploy_target: ["Production"] }, operator);
    }
    const expected = [
      'ask_user_questions_created_total{channel="none"} 30',
      'ask_user_questions_ended_total{status="skipped",channel="none"} 10',
      'ask_user_questions_ended_total{status="answered",channel="none"} 10',
      'ask_user_answer_seconds_count{channel="none"} 10',
    ];
    expect(await lines()).toEqual(expected);
    expect(await lines()).toEqual(expected); // a second scrape counts nothing twice
    await broker.create(deployInput);
    expect((await lines())[0]).toBe('ask_user_questions_created_total{channel="none"} 31');
    metrics.close();
  });
});
