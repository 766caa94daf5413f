/**
 * A fourth channel in under 70 lines: the terminal. Prompts are printed, and each line typed is a reply
 * from one person ("you") in one conversation ("console"). It is a complete `ChannelPlugin`: a host (the
 * gateway, the standalone runner, your server) can list it like the Telegram, Discord and Slack ones.
 *
 *   ASK_USER_CONSOLE=1 pnpm --filter @ask-user/core example:console
 */
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import {
  type AskUserBroker,
  type ChannelPlugin,
  createAskUser,
  createMemoryCoordination,
  createMemoryStore,
  createTextChannel,
  InvalidChannelConfigError,
  readVariable,
  requiredVariablesSet,
} from "@ask-user/core";

export interface ConsoleConfig {
  userName: string;
}

/** The console channel over any pair of streams (the terminal by default). */
export function consolePlugin(input: Readable, output: Writable): ChannelPlugin<ConsoleConfig> {
  const plugin: ChannelPlugin<ConsoleConfig> = {
    name: "console",
    title: "Console",
    variables: [
      { name: "ASK_USER_CONSOLE", description: "Set to 1 to ask in this terminal", required: true },
      { name: "ASK_USER_CONSOLE_NAME", description: 'How the person is named (default "you")' },
    ],
    enabled: (env) => requiredVariablesSet(plugin, env),
    readConfig(env) {
      if (readVariable(env, "ASK_USER_CONSOLE") !== "1")
        throw new InvalidChannelConfigError("console", ["ASK_USER_CONSOLE must be 1."]);
      return { userName: readVariable(env, "ASK_USER_CONSOLE_NAME") ?? "you" };
    },
    parseConversation: (conversation) => (conversation === "console" ? conversation : undefined),
    async create({ config }) {
      let sent = 0;
      const channel = createTextChannel({
        name: "console",
        async send(_conversation, text) {
          output.write(`${text}\n`);
          return String(++sent);
        },
      });
      const lines = createInterface({ input });
      return {
        channel,
        describe: `console (answering as ${config.userName})`,
        async initialize(broker: AskUserBroker) {
          lines.on("line", (text) => {
            const reply = { channel: "console", conversation: "console", userId: config.userName, text };
            void broker.handleReply(reply);
          });
        },
        stop: async () => lines.close(),
      };
    },
  };
  return plugin;
}

export const channelPlugin = consolePlugin(process.stdin, process.stdout);

// Run as a script: one question in the terminal, the result printed as JSON.
if (process.argv[1]?.endsWith("console-channel.ts")) {
  const config = channelPlugin.readConfig(process.env);
  const coordination = createMemoryCoordination();
  const instance = await channelPlugin.create({ config, logger: console, coordination, instanceId: "1" });
  const askUser = createAskUser({ store: createMemoryStore(), channels: [instance.channel] });
  await instance.initialize(askUser);
  const result = await askUser.ask(
    {
      questions: [
        {
          id: "deploy_target",
          header: "Deploy",
          question: "Where should I deploy?",
          options: [{ label: "Staging (Recommended)" }, { label: "Production" }],
        },
      ],
    },
    { target: { channel: "console", conversation: "console" } },
  );
  console.log(JSON.stringify(result));
  await Promise.all([askUser.close(), instance.stop()]);
}
