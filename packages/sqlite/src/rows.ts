import { needsRepair, type QuestionRecord } from "@ask-user/core/store";
import type { QuestionRow, RecordRows, WriteOp } from "./protocol.ts";

/** The `questions` row of `record`: the queried fields copied out of it, and its JSON (`json`). */
export function questionRow(record: QuestionRecord, json: string): QuestionRow {
  return {
    id: record.id,
    version: record.version,
    status: record.status,
    run_id: record.runId ?? null,
    target_channel: record.target?.channel ?? null,
    target_conversation: record.target?.conversation ?? null,
    created_at: record.createdAt,
    expires_at: record.expiresAt,
    needs_repair: needsRepair(record) ? 1 : 0,
    record: json,
  };
}

/** The rows of the message index of `record`: `[channel, conversation, messageId]` of each delivery. */
export function messageRows(record: QuestionRecord): [string, string, string][] {
  const rows: [string, string, string][] = new Array(record.deliveries.length);
  for (let i = 0; i < rows.length; i++) {
    const delivery = record.deliveries[i] as QuestionRecord["deliveries"][number];
    rows[i] = [delivery.channel, delivery.conversation, delivery.messageId];
  }
  return rows;
}

/**
 * The rows the writer stores for `record`: its `questions` row (the queried fields copied out of the
 * record, whose JSON is `json`) and its token and message index rows.
 */
export function recordRows(record: QuestionRecord, json: string): RecordRows {
  return { row: questionRow(record, json), tokens: record.tokens.slice(), messages: messageRows(record) };
}

/**
 * The write that stores `record` — a create, or a compare-and-set from version `expected` when given —
 * and the record's JSON. The rows are taken now: a caller changing the record afterwards changes nothing
 * stored. Throws what `JSON.stringify` throws for a record JSON cannot hold.
 */
export function recordWrite(record: QuestionRecord, expected?: number): { json: string; op: WriteOp } {
  const json = JSON.stringify(record);
  const row = questionRow(record, json);
  const tokens = record.tokens.slice();
  const messages = messageRows(record);
  const op: WriteOp =
    expected === undefined
      ? { kind: "create", row, tokens, messages }
      : { kind: "compareAndSet", expected, row, tokens, messages };
  return { json, op };
}
