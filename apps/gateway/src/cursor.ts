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
