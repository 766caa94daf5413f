import { mkdtempSync, rmSync } from "node:fs";
import { Agent, createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os, { tmpdir } from "node:os";
import { join } from "node:path";
import { startGateway } from "@ask-user/gateway";
import { pino } from "pino";
import { sqliteFigures } from "./sqlite.ts";

const input = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging (Recommended)", description: "Safe" }, { label: "Production" }],
    },
  ],
};
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
const dir = mkdtempSync(join(tmpdir(), "ask-user-bench-"));

function post(url: string, body: unknown): Promise<{ status: number; json: { id?: string } | undefined }> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(data) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }),
        );
      },
    );
    req.on("error", reject);
    req.end(data);
  });
}

function row(name: string, value: number, unit: string, extra = ""): string {
  return `${name.padEnd(52)} ${`${Math.round(value).toLocaleString("en-US")} ${unit}`.padStart(16)}${extra}`;
}

/** Runs `cycle` with `concurrency` workers for `count` cycles; returns cycles per second. */
async function rate(count: number, concurrency: number, cycle: () => Promise<void>): Promise<number> {
  let left = count;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await cycle();
    }),
  );
  return count / ((performance.now() - start) / 1000);
}

console.log(`# gateway benchmarks — ${new Date().toISOString()}`);
console.log(
  `# machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
);
console.log("");

// 1. create → answer over HTTP against a bare node:http server doing the same round trips (2 per cycle).
{
  const bare: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const text = JSON.stringify({ id: "x", echo: body.length });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  const cycles = 2000;
  const bareRate = await rate(cycles, 4, async () => {
    await post(`${bareUrl}/v1/questions`, input);
    await post(`${bareUrl}/v1/questions/x/answer`, { answers: { deploy_target: ["Production"] } });
  });
  bare.close();

  const gateway = await startGateway({
    env: { ASK_USER_PORT: "0", ASK_USER_DB: join(dir, "http.db") },
    logger: pino({ level: "silent" }),
  });
  const gatewayRate = await rate(cycles, 4, async () => {
    const created = await post(`${gateway.url}/v1/questions`, input);
    const answered = await post(`${gateway.url}/v1/questions/${created.json?.id}/answer`, {
      answers: { deploy_target: ["Production"] },
    });
    if (answered.status !== 200) throw new Error(`answer failed: ${answered.status}`);
  });
  await gateway.close();
  console.log(
    row(
      "HTTP create→answer cycles (SQLite, 4 clients)",
      gatewayRate,
      "cycles/s",
      `   (bare node:http: ${Math.round(bareRate).toLocaleString("en-US")}/s; ratio ${(gatewayRate / bareRate).toFixed(3)})`,
    ),
  );
}

// 2. The SQLite store: durable transitions, the event loop under load, reads, reload at start.
await sqliteFigures(dir, row);

rmSync(dir, { recursive: true, force: true });
agent.destroy();
