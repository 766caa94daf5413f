import { Writable } from "node:stream";
import type { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createLogger } from "../src/log.ts";
import { call, deployInput, testGateway } from "./harness.ts";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}

describe("logs", () => {
  it("are structured JSON and never contain the token, even when a caller logs one by mistake", async () => {
    const token = "very-secret-token-0123456789";
    const { lines, stream } = capture();
    const logger = createLogger("debug", stream as unknown as pino.DestinationStream);
    const gw = await testGateway({ ASK_USER_TOKEN: token, ASK_USER_LOG_LEVEL: "debug" }, { logger });
    await call(`${gw.url}/v1/questions`, "POST", deployInput, { authorization: `Bearer ${token}` });
    await call(`${gw.url}/v1/questions`, "GET", undefined, { authorization: "Bearer wrong" });
    logger.info(
      { token, headers: { authorization: `Bearer ${token}` }, env: { ASK_USER_TOKEN: token } },
      "a careless line",
    );
    await gw.close();
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(() => JSON.parse(line)).not.toThrow();
      expect(line).not.toContain(token);
    }
    expect(lines.join("")).toContain("[redacted]");
  });
});
