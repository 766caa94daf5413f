/**
 * Asks one question in this terminal through the console channel (console-channel.ts) and prints the
 * result as JSON:  ASK_USER_CONSOLE=1 pnpm --filter @ask-user/core example:console
 */
import { createAskUser, createMemoryStore } from "@ask-user/core";
import { createMemoryCoordination } from "@ask-user/core/channel";
import { channelPlugin } from "./console-channel.ts";

const config = channelPlugin.readConfig(process.env);
const coordination = createMemoryCoordination();
const instance = await channelPlugin.create({ config, logger: console, coordination, instanceId: "1" });
const askUser = createAskUser({ store: createMemoryStore(), channels: [instance] });
await instance.start(askUser);
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
