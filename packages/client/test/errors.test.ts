import { AskUserError } from "@ask-user/core";
import { describe, expect, it } from "vitest";
import {
  createAskUserClient,
  GatewayAuthError,
  GatewayError,
  GatewayInputError,
  GatewayUnavailableError,
  gatewayError,
  QuestionNotFoundError,
  QuestionNotPendingError,
} from "../src/index.ts";

describe("gatewayError: the error an API answer is read as", () => {
  it("is the class and code the client throws for that status, with the reason, message and issues", () => {
    const cases: Array<[GatewayError, new (...args: never[]) => GatewayError, string]> = [
      [
        gatewayError(422, "invalid_input", "Bad.", [{ path: "q", message: "No." }]),
        GatewayInputError,
        "invalid_input",
      ],
      [gatewayError(400, "invalid_query", "Bad cursor."), GatewayInputError, "invalid_input"],
      [gatewayError(401, "unauthorized", "Token."), GatewayAuthError, "unauthorized"],
      [gatewayError(403, "forbidden", "Origin."), GatewayAuthError, "forbidden"],
      [gatewayError(404, "not_found", "No question."), QuestionNotFoundError, "unknown_question"],
      [gatewayError(409, "answered", "Answered by @alice."), QuestionNotPendingError, "not_pending"],
      [gatewayError(0, "unreachable", "Nothing answers."), GatewayUnavailableError, "unavailable"],
      [gatewayError(503, "shutting_down", "Draining."), GatewayUnavailableError, "closed"],
      [gatewayError(502, "http_502", "Bad gateway."), GatewayUnavailableError, "unavailable"],
      [gatewayError(429, "rate_limited", "Later."), GatewayError, "channel_rate_limited"],
    ];
    for (const [error, type, code] of cases) {
      expect(error).toBeInstanceOf(type);
      expect(error).toBeInstanceOf(AskUserError);
      expect(error.code).toBe(code);
    }
    expect(cases[0]?.[0]).toMatchObject({
      status: 422,
      reason: "invalid_input",
      issues: [{ path: "q", message: "No." }],
      message: "Bad.\n- q: No.",
    });
    expect(gatewayError(409, "answered", "Answered by @alice.")).toMatchObject({
      status: 409,
      reason: "answered",
      message: "Answered by @alice.",
      issues: [],
    });
  });
});

describe("the client's url", () => {
  it("is the gateway's base URL without a trailing slash", () => {
    expect(createAskUserClient({ url: "http://127.0.0.1:7310//" }).url).toBe("http://127.0.0.1:7310");
    expect(createAskUserClient({ url: "https://gw.example/base/" }).url).toBe("https://gw.example/base");
  });
});
