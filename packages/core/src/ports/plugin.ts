/**
 * The channel-plugin contract: how a host (the gateway, the standalone runner, your own server) finds,
 * configures, starts and serves a channel without knowing which platform it is. Each channel package
 * exports one `ChannelPlugin` (`@ask-user/telegram` → `channelPlugin`); the host lists package names.
 */
import type { AskUserBroker } from "../broker/broker.ts";
import { AskUserError } from "../model/errors.ts";
import type { Channel } from "./channel.ts";
import type { Coordination } from "./coordination.ts";
import type { AskUserLogger } from "./logger.ts";

/** The process environment, or any map of variables a host passes. */
export type ChannelEnv = Readonly<Record<string, string | undefined>>;

/** One environment variable a channel reads: for the gateway's banner, `--help` and README tables. */
export interface ChannelVariable {
  name: string;
  /** One line: what it is and its default, e.g. "Bot token from @BotFather". */
  description: string;
  /** Set means "this channel is on"; the plugin's `enabled` is true when every required one is set. */
  required?: boolean;
  /** Never printed (tokens, secrets). */
  secret?: boolean;
}

/** A logger for channels: core's `warn`/`error` plus an optional `info` for start-up lines (pino fits). */
export type ChannelLogger = AskUserLogger & {
  info?: (details: Record<string, unknown>, message: string) => void;
};

/** What a plugin's `create` gets from its host. */
export interface ChannelPluginContext<Config> {
  /** What `readConfig` returned. */
  config: Config;
  logger: ChannelLogger;
  /**
   * Shared by every instance on the same store: dedupe platform updates (`firstSeen`) and hold
   * connections the platform allows once per token (`keepLease`). A lone process passes its own store
   * or `createMemoryCoordination()`.
   */
  coordination: Coordination;
  /** This instance's name in leases and claims. */
  instanceId: string;
}

/** Where a host without an HTTP server of its own should serve `handleWebhook` (the standalone runner). */
export interface ChannelListen {
  host: string;
  port: number;
  /** The paths the platform calls (`/channels/telegram`); the host answers 404 elsewhere. */
  paths: string[];
}

/**
 * A created channel, as hosts run it: core's `Channel` port (give it to `createAskUser({ channels })`), its
 * banner line, its webhook, and one lifecycle — `start(broker)` once the broker exists, `stop()`. It is the
 * adapter the author's `create` returned (see {@link defineChannel}), with its name. Nothing throws "not
 * ready yet": a webhook request that arrives before `start` gets 503 with `Retry-After`, so the platform
 * redelivers it.
 */
export interface ChannelInstance extends Channel {
  /** One banner line without secrets: `telegram (@my_bot, long polling)`. */
  readonly describe: string;
  /**
   * The platform's inbound webhook, where it pushes to us (Telegram's webhook, Slack's Events API and
   * interactivity): a web-standard handler the host mounts at `/channels/<name>` and everything under it.
   * It authenticates its platform itself (secret token, signature).
   */
  handleWebhook?(request: Request): Promise<Response>;
  /** Set when the channel's own variables ask a standalone host to listen somewhere for `handleWebhook`. */
  readonly listen?: ChannelListen;
  /** Starts receiving: taps and replies go to `broker` from now on. Resolves once events flow. */
  start(broker: AskUserBroker): Promise<void>;
  /** Stops receiving and releases what `create` and `start` opened. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * A channel a host can run. Hosts call `enabled(env)`, then `readConfig(env)` (every problem at once, as
 * an `InvalidChannelConfigError`), then `create`, then `start(broker)` once every channel exists.
 * Keep the module that exports the plugin light: load the platform SDK inside `create`, so a host
 * without this channel's variables never loads it.
 */
export interface ChannelPlugin<Config = unknown> {
  /** The channel's name in targets (`{ channel: "telegram", conversation }`) and URLs (`/channels/telegram`). */
  readonly name: string;
  /** For people: "Telegram". */
  readonly title: string;
  readonly variables: readonly ChannelVariable[];
  /** True when the environment turns the channel on (its required variables are set). */
  enabled(env: ChannelEnv): boolean;
  /** Reads and checks the environment; throws `InvalidChannelConfigError` listing every problem. */
  readConfig(env: ChannelEnv): Config;
  /** Whether `conversation` is a well-formed conversation of this platform (for `--target` checks). */
  parseConversation(conversation: string): unknown;
  create(context: ChannelPluginContext<Config>): Promise<ChannelInstance>;
}

/**
 * A channel as its platform author writes it (see {@link defineChannel}): a {@link ChannelInstance}
 * without its name, which comes from the definition — core's `Channel` port, the banner line, the webhook,
 * and `start(broker)` / `stop()`.
 */
export type ChannelAdapter = Omit<ChannelInstance, "name">;

/** The port's members `adapterOf` takes from a channel (the compiler keeps the list complete). */
const PORT_MEMBERS = Object.keys({
  capabilities: 0,
  ready: 0,
  deliver: 0,
  finalize: 0,
  refresh: 0,
  notify: 0,
  displayName: 0,
  isDirect: 0,
  formatTime: 0,
} satisfies Record<Exclude<keyof Channel, "name">, 0>) as Exclude<keyof Channel, "name">[];

/**
 * A `ChannelAdapter` from a channel and the lifecycle that wraps it (`describe`, `start`, `stop`, and any
 * other adapter member, which wins): a plugin's `create` need not copy the port's members one by one.
 * Only the port's members are taken from `channel` (not its name, lifecycle or extras), each read from it
 * when used, so a member that changes (placeholder `capabilities` until ready) and `this` stay the
 * channel's; `lifecycle`'s getters stay getters (a live `describe`).
 */
export function adapterOf(
  channel: Omit<Channel, "name">,
  lifecycle: Pick<ChannelAdapter, "describe" | "start" | "stop"> & Partial<ChannelAdapter>,
): ChannelAdapter {
  const adapter = {};
  for (const key of PORT_MEMBERS) {
    if (!(key in channel)) continue;
    const get = () => {
      const value: unknown = channel[key];
      return typeof value === "function" ? value.bind(channel) : value;
    };
    Object.defineProperty(adapter, key, { get, enumerable: true, configurable: true });
  }
  return Object.defineProperties(adapter, Object.getOwnPropertyDescriptors(lifecycle)) as ChannelAdapter;
}

/** The one object a platform author fills in (see {@link defineChannel}). */
export interface ChannelDefinition<Config> {
  /** The channel's name in targets and URLs (`telegram`). */
  readonly name: string;
  /** For people: "Telegram". */
  readonly title: string;
  readonly variables: readonly ChannelVariable[];
  /** Reads and checks the environment; throws `InvalidChannelConfigError` listing every problem. */
  readConfig(env: ChannelEnv): Config;
  /** Whether `conversation` is a well-formed conversation of this platform. */
  parseConversation(conversation: string): unknown;
  /** Whether the environment turns the channel on; default: every `required` variable is set. */
  enabled?(env: ChannelEnv): boolean;
  /**
   * Builds the channel from its config. Load the platform SDK here (`await import("../adapter.ts")`), so
   * that a host without this channel's variables never loads it.
   */
  create(context: ChannelPluginContext<Config>): Promise<ChannelAdapter>;
}

/**
 * Turns a channel definition into the plugin hosts run (the gateway, the standalone runner, your own
 * server): the author fills in one object — name, variables, config reader, and `create` returning one
 * adapter with `start(broker)`/`stop()` — and core does the rest.
 *
 * @example
 * export const channelPlugin = defineChannel({
 *   name: "console", title: "Console", variables: [], readConfig: () => ({}),
 *   parseConversation: (c) => c,
 *   async create() {
 *     const { createConsoleAdapter } = await import("../adapter.ts");
 *     return createConsoleAdapter();
 *   },
 * });
 */
export function defineChannel<Config>(definition: ChannelDefinition<Config>): ChannelPlugin<Config> {
  const plugin: ChannelPlugin<Config> = {
    name: definition.name,
    title: definition.title,
    variables: definition.variables,
    enabled: (env) => definition.enabled?.(env) ?? requiredVariablesSet(plugin, env),
    readConfig: (env) => definition.readConfig(env),
    parseConversation: (conversation) => definition.parseConversation(conversation),
    async create(context) {
      const adapter = await definition.create(context);
      return instanceOf(definition.name, adapter);
    },
  };
  return plugin;
}

/** The adapter, named: what hosts run (the adapter object itself, so its own state and getters stay live). */
function instanceOf(name: string, adapter: ChannelAdapter): ChannelInstance {
  return Object.defineProperty(adapter, "name", {
    value: name,
    enumerable: true,
    configurable: true,
  }) as ChannelInstance;
}

/** Thrown by `readConfig`: every problem with a channel's variables, one line each. */
export class InvalidChannelConfigError extends AskUserError {
  override name = "InvalidChannelConfigError";
  readonly channel: string;
  readonly problems: string[];

  constructor(channel: string, problems: string[]) {
    super("invalid_input", `${channel}: ${problems.join(" ")}`);
    this.channel = channel;
    this.problems = problems;
  }
}

/** True when every `required` variable of `plugin` is set to something other than blanks. */
export function requiredVariablesSet(plugin: Pick<ChannelPlugin, "variables">, env: ChannelEnv): boolean {
  return plugin.variables.filter((v) => v.required).every((v) => Boolean(env[v.name]?.trim()));
}

/**
 * Reads a trimmed variable: `undefined` when unset or blank. The helper every `readConfig` uses.
 */
export function readVariable(env: ChannelEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

/** True when `value` looks like a ChannelPlugin (a host loading a package checks what it got). */
export function isChannelPlugin(value: unknown): value is ChannelPlugin {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.name === "string" &&
    Array.isArray(v.variables) &&
    typeof v.enabled === "function" &&
    typeof v.readConfig === "function" &&
    typeof v.create === "function"
  );
}
