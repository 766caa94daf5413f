import { describe, expect, it } from "vitest";
import { notReadyResponse } from "../src/channels/not-ready.ts";

describe("notReadyResponse", () => {
  it("answers 503 in JSON with when to try again", async () => {
    const response = notReadyResponse("The Slack channel is not receiving yet.", 5);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      ok: false,
      error: "not_ready",
      message: "The Slack channel is not receiving yet.",
    });
  });

  it("rounds a fraction of a second up, and refuses a negative wait", () => {
    expect(notReadyResponse("busy", 0.2).headers.get("retry-after")).toBe("1");
    expect(() => notReadyResponse("busy", -1)).toThrow(/retryAfterSeconds must be 0 or more/);
  });
});
