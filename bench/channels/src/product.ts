/**
 * The product side: a channel plugin created as the gateway creates it (`readConfig`, `create` with the
 * SQLite store as coordination), a broker over that store in a temporary directory, `start`.
 */
import {
  type AskOptions,
  type AskUserBroker,
  type ChannelEnv,
  type ChannelInstance,
  type ChannelLogger,
  type ChannelPlugin,
  createAskUser,
  type QuestionRecord,
} from "@ask-user/core";
import { createSqliteStore, type SqliteStore } from "@ask-user/sqlite";
import { within } from "./side.ts";
import { type Span, timed } from "./spans.ts";

/** The one-question prompt both sides show: buttons for the options, Other… and Skip. */
export const DEPLOY = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy the release?",
      options: [
        { label: "Staging (Recommended)", description: "Safe first step" },
        { label: "Production", description: "Goes live at once" },
      ],
    },
  ],
};

/** The option the person taps. */
export const TAPPED = "Production";

/** A running product: plugin instance, broker and store. */
export interface Product {
  broker: AskUserBroker;
  store: SqliteStore;
  /** Every call the plugin and the broker made on the store (see {@link timed}). */
  spans: Span[];
  /**
   * `ask()`: `delivered` resolves with the record once its prompt is on screen and stored; `resolved`
   * with `performance.now()` taken where `ask()` resolved (it must be answered with {@link TAPPED}).
   */
  ask(options: AskOptions): { delivered: Promise<QuestionRecord>; resolved: Promise<number> };
  close(): Promise<void>;
}

/** A logger that keeps problems: a bench run with a warning or an error in it is not a result. */
function problemLogger(name: string, problems: string[]): ChannelLogger {
  const keep = (level: string) => (details: Record<string, unknown>, message: string) =>
    problems.push(`${name} ${level}: ${message} ${JSON.stringify(details)}`);
  return { warn: keep("warn"), error: keep("error"), info: () => undefined };
}

/** Starts `plugin` from `env` over a SQLite store at `path`, as the gateway does. */
export async function startProduct<Config>(
  plugin: ChannelPlugin<Config>,
  env: ChannelEnv,
  path: string,
): Promise<Product> {
  const problems: string[] = [];
  const logger = problemLogger(plugin.name, problems);
  const store = createSqliteStore({ path, logger });
  const spans: Span[] = [];
  const seen = timed(store, spans); // what the plugin and the broker get
  let instance: ChannelInstance | undefined;
  let broker: AskUserBroker | undefined;
  const close = async () => {
    await instance?.stop();
    await broker?.close();
    await store.close();
    if (problems.length > 0) throw new Error(`the product logged problems:\n${problems.join("\n")}`);
  };
  try {
    instance = await plugin.create({
      config: plugin.readConfig(env),
      logger,
      coordination: seen,
      instanceId: "bench",
    });
    broker = createAskUser({ store: seen, channels: [instance], logger });
    await instance.start(broker);
    await broker.ready;
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  const running = broker;
  return {
    broker: running,
    store,
    spans,
    ask(options) {
      let unsubscribe: () => void = () => undefined;
      const delivered = new Promise<QuestionRecord>((resolve) => {
        unsubscribe = running.subscribe(({ type, record }) => {
          if (type !== "question.updated" || record.status !== "pending") return;
          if (record.deliveries.length === 0) return;
          unsubscribe();
          resolve(record);
        });
      });
      const resolved = running.ask(DEPLOY, options).then((result) => {
        const at = performance.now();
        const answers = result.status === "answered" ? result.answers.answers.deploy_target : undefined;
        if (answers?.[0] !== TAPPED) throw new Error(`ask() resolved with ${JSON.stringify(result)}`);
        return at;
      });
      const ended = resolved.then(() => {
        throw new Error("ask() resolved before its prompt was delivered");
      });
      ended.catch(() => undefined);
      return {
        delivered: within(Promise.race([delivered, ended]), `${plugin.name}: the prompt`).finally(
          unsubscribe,
        ),
        resolved,
      };
    },
    close,
  };
}
