import { describe, expect, it } from "vitest";
import { pause, TIMED_OUT, within } from "../src/ports/clock.ts";

describe("pause and within with no bound", () => {
  it("an infinite or too long pause ends only by its signal (Node would fire such a timer at once)", async () => {
    for (const ms of [Number.POSITIVE_INFINITY, 2 ** 31]) {
      const controller = new AbortController();
      let ended = false;
      const paused = pause(ms, controller.signal).then(() => {
        ended = true;
      });
      await pause(20);
      expect(ended).toBe(false);
      controller.abort();
      await paused;
      expect(ended).toBe(true);
    }
  });

  it("within an infinite or too long time gives the work's value, never TIMED_OUT", async () => {
    for (const ms of [Number.POSITIVE_INFINITY, 2 ** 31]) {
      const work = pause(30).then(() => "done");
      expect(await within(work, ms)).toBe("done");
    }
    expect(
      await within(
        pause(200).then(() => "late"),
        10,
      ),
    ).toBe(TIMED_OUT);
  });
});
