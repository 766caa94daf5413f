/**
 * Types of `writer.mjs` for the TypeScript that imports it (packages that type-check this one's source
 * without `allowJs`). `writer.mjs` itself is checked against the same types through its JSDoc.
 */
import type { Database } from "better-sqlite3";
import type { ErrorShape, Writer } from "./protocol.ts";

/** Records a dedupe key (`firstSeen`): changes one row when the key is new or its mark has run out. */
export const SEE_SQL: string;
/** Sets a write connection up: busy wait, WAL, `synchronous = FULL`, foreign keys. */
export function configureWriter(db: Database, busyTimeoutMs: number): void;
/** An error as it crosses threads. */
export function errorShape(error: unknown): ErrorShape;
/** Prepares the write statements on `db` (migrated, set up by {@link configureWriter}). */
export function createWriter(db: Database): Writer;
