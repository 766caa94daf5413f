/**
 * The gateway as the profile section runs it, in a child process of its own (so that the load
 * generator's time is not in its profile): `startGateway` on the SQLite file given as the argument, and
 * node:inspector's sampling profiler started and stopped on the parent's word over IPC.
 *
 * Messages in: `"start"`, `"stop"`, `"close"`. Out: `{ url }` once listening, `"started"`, then
 * `{ summary }` on stop.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { startGateway } from "@ask-user/gateway";
import { pino } from "pino";
import { type CpuProfile, summarise } from "./cpu-profile.ts";

const SAMPLING_INTERVAL_MICROS = 250;
/** `PROFILE_SAVE=/tmp/gateway` also writes each profile to `/tmp/gateway-1.cpuprofile`, … (Chrome DevTools opens them). */
const SAVE = process.env.PROFILE_SAVE;
let saved = 0;
const db = process.argv[2];
if (!db || !process.send)
  throw new Error("usage: node profile-gateway.ts <sqlite file> (with an IPC channel)");
const send = (message: unknown) => process.send?.(message);

const gateway = await startGateway({
  env: { ASK_USER_PORT: "0", ASK_USER_DB: db },
  logger: pino({ level: "silent" }),
});
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: SAMPLING_INTERVAL_MICROS });

process.on("message", (message) => {
  void (async () => {
    if (message === "start") {
      await session.post("Profiler.start");
      send("started");
    } else if (message === "stop") {
      const { profile } = await session.post("Profiler.stop");
      saved++;
      if (SAVE) writeFileSync(`${SAVE}-${saved}.cpuprofile`, JSON.stringify(profile));
      send({ summary: summarise(profile as CpuProfile) });
    } else if (message === "close") {
      session.disconnect();
      await gateway.close();
      process.disconnect();
    }
  })();
});
send({ url: gateway.url });
