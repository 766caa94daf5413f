import { type ParseArgsConfig, parseArgs } from "node:util";
import {
  type AskUserClient,
  createAskUserClient,
  type ListFilter,
  type OperatorSurface,
} from "@ask-user/client";
import type { PublicQuestion } from "../api.ts";
import { DEFAULT_GATEWAY_URL } from "../http-client.ts";
import { type CliIo, InputError, UsageError } from "./io.ts";

/** What a command gets besides its arguments. */
export interface CliContext {
  io: CliIo;
  /** `--url` given before the command, if any. */
  url?: string;
}

/** One `ask-user` command: its line in the overview, its `--help` text and its run. */
export interface Command {
  name: string;
  /** One line for `ask-user --help`. */
  summary: string;
  /** The full `ask-user <name> --help` text. */
  help: string;
  /** Returns the exit code; throws `UsageError` for a bad command line. */
  run(args: string[], context: CliContext): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** `--url` and `--help`, accepted by every command that talks to a gateway. */
export const GATEWAY_OPTIONS = {
  url: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const satisfies Options;

/** The `--url` line of the help texts. */
export const URL_HELP = `  --url URL           the gateway (default: $ASK_USER_URL or ${DEFAULT_GATEWAY_URL})`;

/** What a question id looks like beginning with "-" (long: no option cluster is). */
const QUESTION_ID = /^-[A-Za-z0-9_-]{9,63}$/;

/** `parseArgs` in strict mode whose mistakes become `UsageError`s with a readable message. */
export function parse<const T extends Options>(
  args: string[],
  options: T,
  allowPositionals = true,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: boolean; strict: true }>> {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Node's messages end with advice on `--` meant for script authors; the first sentence is enough.
    const first = message.split(/\. (?=To specify|Did you forget)/)[0] ?? message;
    // A question id made before ids stopped starting with "-" reads as options.
    const id = args.find((arg) => QUESTION_ID.test(arg) && !(arg.slice(1) in options));
    throw new UsageError(
      id === undefined ? first : `${first}. A question id that starts with "-" goes after "--": -- ${id}`,
    );
  }
}

/** Exactly one positional argument (the question id or the input file), else a `UsageError`. */
export function single(positionals: string[], what: string): string {
  const [first, ...rest] = positionals;
  if (first === undefined || first === "") throw new UsageError(`Missing ${what}.`);
  if (rest.length > 0) throw new UsageError(`Unexpected argument: ${rest.join(" ")}`);
  return first;
}

/**
 * The gateway a command talks to: `--url`, else the one before the command, else `ASK_USER_URL`, else
 * the default. A URL that is not `http(s)://host…` is an `InputError` naming where it came from.
 */
export function gatewayUrl(context: CliContext, url: string | undefined): string {
  const { env } = context.io;
  const given = url ?? context.url;
  const source = given !== undefined ? "--url" : env.ASK_USER_URL ? "ASK_USER_URL" : undefined;
  const base = given ?? (env.ASK_USER_URL || DEFAULT_GATEWAY_URL);
  if (source) checkGatewayUrl(base, source);
  return base;
}

/**
 * The `@ask-user/client` of a command, for the gateway of {@link gatewayUrl}, with `ASK_USER_TOKEN` as
 * its bearer token (never printed); answers and skips are signed "via CLI" (`ask-user mcp`: "mcp").
 */
export function connect(
  context: CliContext,
  url: string | undefined,
  surface: OperatorSurface = "cli",
): AskUserClient {
  const token = context.io.env.ASK_USER_TOKEN || undefined;
  return createAskUserClient({ url: gatewayUrl(context, url), token, surface });
}

/** `list` follows at most this many pages of 500 (five million questions): a bound, not a limit met. */
const MAX_LIST_PAGES = 10_000;

/** Every question matching `filter`, oldest first: the client's pages of 500, followed to the last. */
export async function listAll(client: AskUserClient, filter: ListFilter = {}): Promise<PublicQuestion[]> {
  const out: PublicQuestion[] = [];
  let pages = 0;
  for await (const page of client.list({ ...filter, limit: 500 })) {
    out.push(...page.questions);
    if (++pages >= MAX_LIST_PAGES) break;
  }
  return out;
}

/** `127.0.0.1:7310` or `localhost:7310` (no scheme) and other non-HTTP URLs, told precisely. */
function checkGatewayUrl(url: string, source: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed && (parsed.protocol === "http:" || parsed.protocol === "https:") && parsed.hostname !== "")
    return;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? undefined : `http://${url}`;
  const fix = withScheme ? `; did you mean ${withScheme}?` : ", e.g. http://127.0.0.1:7310.";
  throw new InputError(`${source} "${url}" is not an http:// or https:// URL${fix}`);
}
