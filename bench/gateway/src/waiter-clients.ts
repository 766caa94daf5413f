/**
 * Many requests held open at once, each on its own connection (as many agents, each long-polling):
 * opened a bounded number at a time, each resolving with the moment its response ended.
 */
import { request } from "node:http";

/** One held request: `done` resolves when its response has ended (or rejects when it fails). */
export interface Waiter {
  done: Promise<{ at: number; status: number; body: string }>;
  ended(): boolean;
}

/** Opens one connection per URL, `connecting` at a time (the listen backlog stays short), GET each. */
export async function openWaiters(urls: readonly string[], connecting = 128): Promise<Waiter[]> {
  const waiters: Waiter[] = [];
  let next = 0;
  const open = (url: string): Promise<Waiter> =>
    new Promise((connected, failed) => {
      let ended = false;
      const done = new Promise<{ at: number; status: number; body: string }>((resolve, reject) => {
        const req = request(url, { agent: false }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            body += chunk;
          });
          res.on("end", () => {
            ended = true;
            resolve({ at: performance.now(), status: res.statusCode ?? 0, body });
          });
        });
        req.on("socket", (socket) => socket.once("connect", () => connected({ done, ended: () => ended })));
        req.on("error", (error) => {
          ended = true;
          reject(error);
          failed(error);
        });
        req.end();
      });
      done.catch(() => undefined); // reported through `connected`/`failed`, or to whoever awaits it
    });
  await Promise.all(
    Array.from({ length: Math.min(connecting, urls.length) }, async () => {
      while (next < urls.length) {
        const i = next++;
        waiters[i] = await open(urls[i] as string);
      }
    }),
  );
  return waiters;
}
