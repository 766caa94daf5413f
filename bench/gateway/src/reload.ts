/**
 * Reloading 100,000 pending questions at start: opening the store and listing them, against raw
 * better-sqlite3 selecting and parsing the same rows; then the broker's start over them.
 */
import { join } from "node:path";
import { createAskUser, type QuestionRecord } from "@ask-user/core";
import { createSqliteStore } from "@ask-user/sqlite";
import { pending, Raw } from "./raw.ts";
import { print } from "./report.ts";
import { fmt, percentile, rate, row } from "./stats.ts";

const RELOAD = 100_000;
const ROUNDS = 3;
const quiet = { warn() {}, error() {} };

/** Prints the reload figures. */
export async function reloadFigures(dir: string): Promise<void> {
  const now = Date.now();
  {
    const path = join(dir, "reload.db");
    const store = createSqliteStore({ path });
    const creates = await rate(RELOAD, 1_024, (i) => store.create(pending(i, now)));
    await store.close();
    print(row(`create ${fmt(RELOAD)} questions, 1,024 concurrent (durable)`, creates, "creates/s"));

    // Three rounds each, taking turns; each round's records are let go before the next round, so that
    // neither side pays for the garbage of the other.
    const rawTimes: number[] = [];
    const storeTimes: number[] = [];
    let reopened = createSqliteStore({ path });
    await reopened.close();
    const rawReload = () => {
      const start = performance.now();
      const raw = new Raw(path);
      const rows = raw
        .prepare("SELECT record FROM questions WHERE status = 'pending' ORDER BY created_at, id")
        .pluck()
        .all() as string[];
      const parsed = rows.map((json) => JSON.parse(json) as QuestionRecord);
      raw.close();
      rawTimes.push(performance.now() - start);
      return parsed.length;
    };
    const storeReload = async () => {
      const start = performance.now();
      reopened = createSqliteStore({ path });
      const listed = await reopened.list({ status: "pending" });
      storeTimes.push(performance.now() - start);
      return listed.length;
    };
    for (let round = 0; round < ROUNDS; round++) {
      if (rawReload() !== RELOAD) throw new Error("raw reload: not every question");
      if ((await storeReload()) !== RELOAD) throw new Error("reload: not every question");
      if (round < ROUNDS - 1) await reopened.close();
    }
    const listMs = percentile(storeTimes, 50);
    const rawMs = percentile(rawTimes, 50);
    const times = (values: number[]) => values.map((v) => fmt(v)).join(", ");
    print(
      row(
        `reload ${fmt(RELOAD)} pending (open + list({ status: "pending" }))`,
        listMs,
        "ms",
        `   (raw better-sqlite3 SELECT + JSON.parse: ${fmt(rawMs)} ms; ratio ${(listMs / rawMs).toFixed(2)}; goal ≤ 1,000 ms; medians of the rounds: store ${times(storeTimes)}, raw ${times(rawTimes)} ms)`,
      ),
    );
    const brokerStart = performance.now();
    const broker = createAskUser({ store: reopened, channels: [], logger: quiet });
    await broker.ready;
    print(
      row(
        `broker ready over ${fmt(RELOAD)} pending (deadlines, repair sweep)`,
        performance.now() - brokerStart,
        "ms",
      ),
    );
    await broker.close();
    await reopened.close();
  }
}
