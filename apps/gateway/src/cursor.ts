import { type AskUserBroker, type QuestionFilter, toPublicQuestion } from "@ask-user/core";
import type { QuestionList } from "./api.ts";

/**
 * The page cursor of the HTTP API's `nextCursor` and of MCP's `tasks/list`: where the last question of a
 * page sits in list order (`createdAt`, `id`), opaque to clients.
 */
export function encodeCursor(record: { createdAt: number; id: string }): string {
  return Buffer.from(JSON.stringify([record.createdAt, record.id])).toString("base64url");
}

/** The position a cursor names; `undefined` when the text is not one this server made. */
export function decodeCursor(text: string): { createdAt: number; id: string } | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [createdAt, id] = value as unknown[];
    if (typeof createdAt !== "number" || !Number.isFinite(createdAt) || typeof id !== "string")
      return undefined;
    return { createdAt, id };
  } catch {
    return undefined;
  }
}

/**
 * One page of questions in list order after `after` (the position a cursor named), with `nextCursor`
 * when there is more: what `GET /v1/questions` answers and the MCP server's `tasks/list` reads.
 */
export async function questionPage(
  broker: AskUserBroker,
  filter: QuestionFilter,
  after: { createdAt: number; id: string } | undefined,
  limit: number,
): Promise<QuestionList> {
  const records = await broker.list(filter, after ? { limit: limit + 1, after } : { limit: limit + 1 });
  const page = records.slice(0, limit);
  const last = page.at(-1);
  const list: QuestionList = { questions: page.map(toPublicQuestion) };
  if (records.length > limit && last) list.nextCursor = encodeCursor(last);
  return list;
}
