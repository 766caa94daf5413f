/**
 * The HTTP side of `mcp-waiters.ts`: one keep-alive agent for thousands of open requests, a request
 * that streams its body (an SSE response stays open), a bounded wait, and failures reported once per
 * kind.
 */
import { Agent, request } from "node:http";

export const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

/**
 * Closes the agent's idle sockets. Call it after a pause (a memory reading takes seconds): the
 * gateway closes a socket idle for 5 s, and a request sent on it just then fails with ECONNRESET.
 */
export function dropIdleSockets(): void {
  for (const sockets of Object.values(agent.freeSockets))
    for (const socket of sockets ?? []) socket.destroy();
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One HTTP request; `onData` sees the body as it streams (an SSE response stays open). */
export function send(
  url: string,
  method: string,
  body: unknown,
  headers: Record<string, string> = {},
  onData?: (chunk: string) => void,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, agent, headers: { "content-type": "application/json", ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
          onData?.(chunk);
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** Polls `done` every 50 ms until it holds; throws after `timeoutMs`. */
export async function waitFor(what: string, done: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Reports the first failure of a kind and counts the rest (ten thousand identical stacks say nothing). */
export const failures = new Map<string, number>();
export function failed(kind: string, error: unknown): void {
  const seen = failures.get(kind) ?? 0;
  failures.set(kind, seen + 1);
  if (seen === 0) console.error(`${kind} failed:`, error);
}
