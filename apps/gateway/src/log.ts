import { type AskUserBroker, actorName, renderAnswers } from "@ask-user/core";
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

/** Where the log goes and how it looks. */
export interface LogOutput {
  /** Defaults to stderr. */
  destination?: DestinationStream;
  /** One readable line per entry (a terminal) instead of JSON. Default: whether stderr is a terminal. */
  pretty?: boolean;
  /** Colours in pretty lines. Default: a terminal on stderr without `NO_COLOR`. */
  color?: boolean;
}

/**
 * Whether the log is pretty: `ASK_USER_LOG_FORMAT=pretty|json` when set, else whether stderr is a
 * terminal (readable lines under the banner; JSON for files, pipes and log collectors).
 */
export function prettyLog(env: Record<string, string | undefined>, stderrIsTTY: boolean): boolean {
  const format = env.ASK_USER_LOG_FORMAT?.trim();
  if (format === "pretty") return true;
  if (format === "json") return false;
  return stderrIsTTY;
}

function stderrColor(): boolean {
  const noColor = process.env.NO_COLOR;
  return process.stderr.isTTY === true && (noColor === undefined || noColor === "");
}

/**
 * The gateway's structured logger (pino). JSON lines on stderr, or — on a terminal, or with
 * `ASK_USER_LOG_FORMAT=pretty` (`json` forces JSON) — one readable line per entry (`12:04:05 INFO asked "Deploy" …`). Tokens are redacted either way. A pino logger is core's
 * `ChannelLogger` as it is: the broker, the stores and the channels log through it directly.
 *
 * @example
 * const logger = createLogger("info"); // pretty on a terminal, JSON when piped
 */
export function createLogger(level: string, output: DestinationStream | LogOutput = {}): Logger {
  const options: LogOutput = "write" in output ? { destination: output, pretty: false } : output;
  const pretty = options.pretty ?? prettyLog(process.env, process.stderr.isTTY === true);
  const target = options.destination ?? pino.destination(2);
  return pino(
    { name: "ask-user", level, redact: { paths: REDACT, censor: "[redacted]" } },
    pretty ? prettyStream(target, options.color ?? stderrColor()) : target,
  );
}

const LEVELS: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO",
  40: "WARN",
  50: "ERROR",
  60: "FATAL",
};
const HIDDEN = new Set(["level", "time", "pid", "hostname", "name", "msg", "v"]);

function fieldText(value: unknown): string {
  if (typeof value === "string") return /\s/.test(value) ? JSON.stringify(value) : value;
  if (typeof value === "object" && value !== null && "message" in value) {
    return JSON.stringify((value as { message: unknown }).message);
  }
  return JSON.stringify(value);
}

/**
 * A pino destination that writes each JSON entry as one line for a person: local time, level, message,
 * then the other fields as `key=value` (an error as its message).
 */
export function prettyStream(out: { write(text: string): unknown }, color: boolean): DestinationStream {
  const paint = (code: number, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  return {
    write(line: string) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        out.write(line);
        return;
      }
      const level = typeof entry.level === "number" ? entry.level : 30;
      const name = (LEVELS[level] ?? String(level)).padEnd(5);
      const time = new Date(typeof entry.time === "number" ? entry.time : Date.now());
      const clock = time.toTimeString().slice(0, 8);
      const levelText =
        level >= 50
          ? paint(31, name)
          : level >= 40
            ? paint(33, name)
            : level <= 20
              ? paint(2, name)
              : paint(36, name);
      const fields = Object.entries(entry)
        .filter(([key]) => !HIDDEN.has(key))
        .map(([key, value]) => paint(2, `${key}=${fieldText(value)}`));
      out.write(`${paint(2, clock)} ${levelText} ${[String(entry.msg ?? ""), ...fields].join(" ")}\n`);
    },
  };
}

/**
 * Logs one info line per question asked, answered and ended — what an operator watching the gateway's
 * terminal wants to see come and go. Returns the unsubscriber. With the level above info nothing is
 * made per event (the level is read at each event, so a level changed at run time is followed).
 */
export function logActivity(broker: AskUserBroker, logger: Logger): () => void {
  return broker.subscribe((event) => {
    if (event.type === "question.updated" || !logger.isLevelEnabled("info")) return;
    const { record } = event;
    const header = record.prompt.questions.map((q) => q.header).join(" · ");
    const questionId = record.id;
    if (event.type === "question.requested") {
      const target = record.target ? `${record.target.channel}:${record.target.conversation}` : undefined;
      const where = target ? `to ${target}` : "on the web panel and API only (no target)";
      logger.info({ questionId }, `asked "${header}" ${where}`);
    } else if (event.type === "question.resolved") {
      const by = record.resolvedBy ? ` by ${actorName(record.resolvedBy, "en")}` : "";
      if (record.status === "answered") {
        const answers = renderAnswers(record.prompt, record.answers ?? {});
        logger.info({ questionId }, `answered "${header}"${by}: ${answers}`);
      } else {
        const why = record.status === "undeliverable" && record.error ? ` (${record.error})` : "";
        logger.info({ questionId }, `ended "${header}": ${record.status}${by}${why}`);
      }
    }
  });
}
