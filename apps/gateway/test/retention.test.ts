import { createFakeClock } from "@ask-user/core/testing";
import { describe, expect, it } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";

const DAY_MS = 86_400_000;

describe("retention (ASK_USER_RETENTION_DAYS)", () => {
  it("deletes ended questions once their deadline is older than the retention, never pending ones", async () => {
    const clock = createFakeClock(Date.UTC(2026, 11, 2, 12, 0));
    const gw = await testGateway({ ASK_USER_RETENTION_DAYS: "7" }, { clock });
    const done = (await call(`${gw.url}/v1/questions`, "POST", deployInput)).body.id as string;
    await call(`${gw.url}/v1/questions/${done}/answer`, "POST", {
      answers: { deploy_target: ["Production"] },
    });
    clock.jump(6 * DAY_MS);
    const waiting = (await call(`${gw.url}/v1/questions`, "POST", deployInput)).body.id as string;
    expect(await gw.prune()).toBe(0); // six days: kept

    clock.jump(2 * DAY_MS); // the answered one ended more than seven days ago now
    expect(await gw.prune()).toBe(1);
    expect((await call(`${gw.url}/v1/questions/${done}`, "GET")).status).toBe(404);
    expect((await call(`${gw.url}/v1/questions/${waiting}`, "GET")).status).toBe(200);
  });

  it("keeps everything with 0", async () => {
    const clock = createFakeClock(Date.UTC(2026, 11, 2, 12, 0));
    const gw = await testGateway({ ASK_USER_RETENTION_DAYS: "0" }, { clock });
    const id = (await call(`${gw.url}/v1/questions`, "POST", deployInput)).body.id as string;
    await call(`${gw.url}/v1/questions/${id}/skip`, "POST", {});
    clock.jump(365 * DAY_MS);
    expect(await gw.prune()).toBe(0);
    expect((await call(`${gw.url}/v1/questions/${id}`, "GET")).body.status).toBe("skipped");
  });
});
