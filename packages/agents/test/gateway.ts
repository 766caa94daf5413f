import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AskUserClient, createAskUserClient, type PublicQuestion } from "@ask-user/client";
import type { Answers, Clock } from "@ask-user/core";
import { type RunningGateway, startGateway } from "@ask-user/gateway";
import { pino } from "pino";
import { afterEach } from "vitest";
import { until } from "./chat.ts";

const running: RunningGateway[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A real gateway in this process (fresh SQLite database, free port, no chat channels), a client of
 * it for the agent, and a person who answers through the HTTP API.
 */
export async function testGateway(options: { clock?: Clock } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "ask-user-agents-"));
  dirs.push(dir);
  const gateway = await startGateway({
    env: { ASK_USER_PORT: "0", ASK_USER_DB: join(dir, "ask-user.db") },
    logger: pino({ level: "silent" }),
    plugins: [],
    ...(options.clock ? { clock: options.clock } : {}),
  });
  running.push(gateway);
  const client = createAskUserClient({ url: gateway.url });
  const person: AskUserClient = createAskUserClient({ url: gateway.url, name: "alice" });
  return {
    gateway,
    client,
    /** The question once it is pending on the gateway. */
    pending(): Promise<PublicQuestion> {
      return until(async () => (await person.listPage({ status: "pending" })).questions[0]);
    },
    /** Alice answers the pending question through `POST /v1/questions/:id/answer`. */
    async answer(answers: Answers): Promise<PublicQuestion> {
      const question = await until(async () => (await person.listPage({ status: "pending" })).questions[0]);
      return person.answer(question.id, answers);
    },
    /** Every question the gateway has, oldest first. */
    async all(): Promise<PublicQuestion[]> {
      return (await person.listPage()).questions;
    },
  };
}
