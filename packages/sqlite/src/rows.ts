import { needsRepair, type QuestionRecord } from "@ask-user/core/store";
import type { RecordRows } from "./protocol.ts";

/**
 * The rows the writer stores for `record`: its `questions` row (the queried fields copied out of the
 * record, whose JSON is `json`) and its token and message index rows.
 */
export function recordRows(record: QuestionRecord, json: string): RecordRows {
  return {
    row: {
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
    },
    tokens: [...record.tokens],
    messages: record.deliveries.map((d) => [d.channel, d.conversation, d.messageId]),
  };
}
