/**
 * Types of `writer.mjs` for the TypeScript that imports it (packages that type-check this one's source
 * without `allowJs`). `writer.mjs` itself is checked against the same types through its JSDoc.
 */
import type { Database } from "better-sqlite3";
import type {
  ErrorShape,
  GroupResult,
  WireAnswers,
  WireGroup,
  WriteOp,
  Writer,
  WriterStats,
} from "./protocol.ts";

/** Records a dedupe key (`firstSeen`): changes one row when the key is new or its mark has run out. */
export const SEE_SQL: string;
/** Sets a write connection up: busy wait, WAL, `synchronous = FULL`, foreign keys. */
export function configureWriter(db: Database, busyTimeoutMs: number): void;
/** An error as it crosses threads. */
export function errorShape(error: unknown): ErrorShape;
/** Prepares the write statements on `db` (migrated, set up by {@link configureWriter}). */
export function createWriter(db: Database): Writer;

/** A group of writes as one flat array (`WireGroup` in `protocol.ts`; the code is in `wire.mjs`). */
export function encodeGroup(id: number, ops: readonly WriteOp[]): WireGroup;
/** The group `encodeGroup` made; throws on an array it did not make. */
export function decodeGroup(wire: WireGroup): { id: number; ops: WriteOp[] };
/** The answers of `groups`, carried out together with `result`, as one flat array (`WireAnswers`). */
export function encodeAnswers(
  groups: readonly { id: number; ops: readonly WriteOp[] }[],
  result: GroupResult,
): WireAnswers;
/** Hands each group's result in `wire` to `answer`, in order; returns the writer's counts. */
export function decodeAnswers(
  wire: WireAnswers,
  answer: (id: number, result: GroupResult) => void,
): WriterStats;
