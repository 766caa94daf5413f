import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteStore } from "../src/index.ts";
import { configureWriter, createWriter } from "../src/writer.mjs";
import { tempPaths } from "./temp.ts";

const tempPath = tempPaths();
const dbs: Database.Database[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

/** A migrated database with a writer on it whose `synchronous` changes are recorded. */
async function writerOn() {
  const path = tempPath();
  await createSqliteStore({ path }).close(); // creates and migrates the file
  const db = new Database(path);
  dbs.push(db);
  configureWriter(db, 1_000);
  const settings: string[] = [];
  const pragma = db.pragma.bind(db);
  db.pragma = ((source: string, options?: Database.PragmaOptions) => {
    if (source.startsWith("synchronous")) settings.push(source);
    return pragma(source, options);
  }) as typeof db.pragma;
  return { db, writer: createWriter(db), settings };
}

describe("dedupe marks", () => {
  it("commit a group of marks only without an fsync of its own, and go back to FULL after", async () => {
    const { db, writer, settings } = await writerOn();
    const now = Date.now();
    const result = writer.run([{ kind: "see", key: "telegram:update:1", expires: now + 60_000, now }]);
    expect(result).toMatchObject({ ok: true, outcomes: [{ ok: true, value: true }] });
    expect(settings).toEqual(["synchronous = NORMAL", "synchronous = FULL"]);
    expect(db.pragma("synchronous", { simple: true })).toBe(2); // FULL
    // Seen once: the second mark of the same key is refused, so the mark was kept.
    expect(writer.run([{ kind: "see", key: "telegram:update:1", expires: now + 60_000, now }])).toMatchObject(
      {
        outcomes: [{ ok: true, value: false }],
      },
    );
  });

  it("leave any group with another write fully durable", async () => {
    const { writer, settings } = await writerOn();
    const now = Date.now();
    writer.run([
      { kind: "see", key: "k", expires: now + 1_000, now },
      { kind: "lease", name: "polling", holder: "a", expires: now + 1_000, now },
    ]);
    expect(settings).toEqual([]);
  });

  it("are written on the main thread when the write lock is free, and by the writer thread when it is not", async () => {
    const path = tempPath();
    const store = createSqliteStore({ path });
    try {
      const before = store.stats();
      expect(await store.firstSeen("slack:event:1", 60_000)).toBe(true);
      expect(await store.firstSeen("slack:event:1", 60_000)).toBe(false);
      expect(store.stats().writes).toBe(before.writes); // no round trip to the writer thread

      // Another connection holds the write lock: the mark does not wait on the event loop (a 10 ms
      // timer keeps ticking) but goes to the writer thread, which lands it once the lock is free.
      const holder = new Database(path);
      dbs.push(holder);
      holder.exec("BEGIN IMMEDIATE");
      let ticks = 0;
      const timer = setInterval(() => ticks++, 10);
      const started = performance.now();
      const marking = store.firstSeen("slack:event:2", 60_000);
      const sameAgain = store.firstSeen("slack:event:1", 60_000);
      expect(performance.now() - started).toBeLessThan(500); // no busy wait (the readers wait up to 1 s)
      await new Promise((resolve) => setTimeout(resolve, 300));
      holder.exec("COMMIT");
      expect(await marking).toBe(true);
      expect(await sameAgain).toBe(false); // marks of both ways are one set
      clearInterval(timer);
      expect(ticks).toBeGreaterThan(10);
      expect(store.stats().writes).toBe(before.writes + 2);
      expect(await store.firstSeen("slack:event:2", 60_000)).toBe(false);
    } finally {
      await store.close();
    }
    // On disk for a store opened afterwards.
    const reopened = createSqliteStore({ path });
    try {
      expect(await reopened.firstSeen("slack:event:1", 60_000)).toBe(false);
      expect(await reopened.firstSeen("slack:event:2", 60_000)).toBe(false);
    } finally {
      await reopened.close();
    }
  });
});
