/**
 * Long-polls (`GET /v1/questions/:id?wait=`) share one broker listener dispatched by question id: an
 * answer wakes the waiters of its own question only, whatever the number of long-polls in flight.
 */
import { type AskUserBroker, createAskUser, createMemoryStore } from "@ask-user/core";
import { afterEach, describe, expect, it } from "vitest";
import { waitWhilePending } from "../src/wait.ts";
import { deployInput } from "./harness.ts";

let broker: AskUserBroker | undefined;
afterEach(async () => {
  await broker?.close();
});

/** A broker whose `subscribe` counts the listeners it holds. */
function countingBroker(): { broker: AskUserBroker; listeners: () => number } {
  const inner = createAskUser({ store: createMemoryStore(), channels: [] });
  let held = 0;
  const subscribe = inner.subscribe.bind(inner);
  inner.subscribe = (listener) => {
    held++;
    const stop = subscribe(listener);
    return () => {
      held--;
      stop();
    };
  };
  return { broker: inner, listeners: () => held };
}

const operator = { channel: "http", userId: "op" };

describe("waitWhilePending", () => {
  it("holds one broker listener for 500 long-polls and wakes only the answered question's waiters", async () => {
    const counted = countingBroker();
    broker = counted.broker;
    const records = await Promise.all(Array.from({ length: 500 }, () => counted.broker.create(deployInput)));
    const woken: string[] = [];
    const aborts = records.map(() => new AbortController());
    const waits = records.map((record, i) =>
      waitWhilePending(counted.broker, record.id, 60_000, aborts[i]?.signal).then((found) => {
        woken.push(found?.id ?? "none");
        return found;
      }),
    );
    await expect.poll(() => counted.listeners()).toBe(1);

    const [first, second] = records;
    if (!first || !second) throw new Error("no questions");
    expect((await counted.broker.answer(first.id, { deploy_target: ["Production"] }, operator)).ok).toBe(
      true,
    );
    const answered = await waits[0];
    expect(answered?.status).toBe("answered");
    expect(woken).toEqual([first.id]);

    // Time up: the wait ends with the question as it is, still pending; an unknown id is undefined.
    expect((await waitWhilePending(counted.broker, second.id, 20))?.status).toBe("pending");
    expect(await waitWhilePending(counted.broker, "no-such-id", 20)).toBeUndefined();

    // Aborted long-polls end at once with the question as it is; when none is left the listener is given back.
    for (const abort of aborts) abort.abort();
    for (const record of await Promise.all(waits.slice(1))) expect(record?.status).toBe("pending");
    expect(woken).toHaveLength(500);
    expect(counted.listeners()).toBe(0);
  });
});
