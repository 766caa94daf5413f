import type { AskUserLogger } from "@ask-user/core";
import { type DestinationStream, type Logger, pino } from "pino";

/** Paths that may hold secrets: never written to the log. */
const REDACT = [
  "token",
  "*.token",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "req.headers.authorization",
  "env",
  "*.env",
];

/** The gateway's structured logger (pino, JSON lines on stderr). Tokens are redacted. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    { name: "ask-user", level, redact: { paths: REDACT, censor: "[redacted]" } },
    destination ?? pino.destination(2),
  );
}

/** Adapts pino to core's logger port. */
export function brokerLogger(logger: Logger): AskUserLogger {
  return {
    warn: (details, message) => logger.warn(details, message),
    error: (details, message) => logger.error(details, message),
  };
}
