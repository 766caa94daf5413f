/** Where the broker reports trouble it handled (pino-compatible: details first, then the message). */
export interface AskUserLogger {
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

/** The default logger: one line on stderr per problem. */
export const consoleLogger: AskUserLogger = {
  warn: (details, message) => console.warn(`[ask-user] ${message}`, details),
  error: (details, message) => console.error(`[ask-user] ${message}`, details),
};
