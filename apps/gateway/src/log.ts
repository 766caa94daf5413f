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

/**
 * The gateway's structured logger (pino, JSON lines on stderr). Tokens are redacted. A pino logger is
 * core's `ChannelLogger` as it is: the broker, the stores and the channels log through it directly.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    { name: "ask-user", level, redact: { paths: REDACT, censor: "[redacted]" } },
    destination ?? pino.destination(2),
  );
}
