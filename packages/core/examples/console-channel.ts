/**
 * A fourth channel in under 70 lines: the terminal. Prompts are printed, and each line typed is a reply
 * from one person ("you") in one conversation ("console"). It is a complete `ChannelPlugin`: a host (the
 * gateway, the standalone runner, your server) can list it like the Telegram, Discord and Slack ones.
 *
 *   ASK_USER_CONSOLE=1 pnpm --filter @ask-user/core example:console   (runs console-ask.ts)
 */
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import {
  type ChannelPlugin,
  createTextChannel,
  InvalidChannelConfigError,
  readVariable,
} from "@ask-user/core";
import { defineChannel } from "@ask-user/core/channel";

export interface ConsoleConfig {
  userName: string;
}

/** The console channel over any pair of streams (the terminal by default). */
export function consolePlugin(input: Readable, output: Writable): ChannelPlugin<ConsoleConfig> {
  return defineChannel({
    name: "console",
    title: "Console",
    variables: [
      { name: "ASK_USER_CONSOLE", description: "Set to 1 to ask in this terminal", required: true },
      { name: "ASK_USER_CONSOLE_NAME", description: 'How the person is named (default "you")' },
    ],
    readConfig(env) {
      if (readVariable(env, "ASK_USER_CONSOLE") !== "1")
        throw new InvalidChannelConfigError("console", ["ASK_USER_CONSOLE must be 1."]);
      return { userName: readVariable(env, "ASK_USER_CONSOLE_NAME") ?? "you" };
    },
    parseConversation: (conversation) => (conversation === "console" ? conversation : undefined),
    async create({ config }) {
      let sent = 0;
      const lines = createInterface({ input });
      return {
        // Core renders the prompt as readable text; this channel only prints it.
        ...createTextChannel({
          name: "console",
          send: async (_conversation, text) => {
            output.write(`${text}\n`);
            return String(++sent);
          },
        }),
        describe: `console (answering as ${config.userName})`,
        async start(broker) {
          lines.on("line", (text) => {
            void broker.handleReply({
              channel: "console",
              conversation: "console",
              userId: config.userName,
              text,
            });
          });
        },
        stop: async () => lines.close(),
      };
    },
  });
}

export const channelPlugin = consolePlugin(process.stdin, process.stdout);
