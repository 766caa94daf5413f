import { gatewayError } from "@ask-user/client";
import { AskUserError } from "@ask-user/core";
import { describe, expect, it } from "vitest";
import { InputError, UsageError } from "../src/cli/io.ts";
import { ConfigError } from "../src/config.ts";
import { HttpError } from "../src/http/respond.ts";
import { call, testGateway } from "./harness.ts";

describe("the gateway's errors", () => {
  it("are all AskUserErrors with a code, their name and their data", () => {
    const errors: Array<[AskUserError, string, string, Record<string, unknown>]> = [
      [new ConfigError(["A is wrong."]), "ConfigError", "invalid_input", { problems: ["A is wrong."] }],
      [new UsageError("Missing FILE."), "UsageError", "invalid_input", { message: "Missing FILE." }],
      [
        new InputError("Cannot read a.json."),
        "InputError",
        "invalid_input",
        { message: "Cannot read a.json." },
      ],
      [
        new HttpError(404, "not_found", "No question q1."),
        "HttpError",
        "unknown_question",
        { status: 404, reason: "not_found" },
      ],
      [
        // The client's, thrown by the CLI's client and the in-process MCP backend alike.
        gatewayError(409, "answered", "Already answered."),
        "QuestionNotPendingError",
        "not_pending",
        { status: 409, reason: "answered", issues: [] },
      ],
    ];
    for (const [error, name, code, data] of errors) {
      expect(error).toBeInstanceOf(AskUserError);
      expect(error).toMatchObject({ name, code, ...data });
    }
    expect(new ConfigError(["A is wrong.", "B too."]).message).toBe(
      "Invalid configuration:\n- A is wrong.\n- B too.",
    );
  });

  it("send the API's reason as the error code of a response body", async () => {
    const gw = await testGateway();
    expect(await call(`${gw.url}/v1/questions/nope`, "GET")).toMatchObject({
      status: 404,
      body: { error: { code: "not_found" } },
    });
  });
});
