import { createAskUser, createMemoryStore, createTextChannel } from "@ask-user/core";

// Any text transport works: here the "chat" is the console, and the human answers "2" after a moment.
const chat = createTextChannel({
  name: "console",
  async send(conversation, text) {
    console.log(`[to ${conversation}]\n${text}\n`);
    if (text.includes("Where should I deploy?")) {
      const reply = { channel: "console", conversation, userId: "alice", text: "2" };
      setTimeout(() => void askUser.handleReply(reply), 50);
    }
    return String(Math.random());
  },
});
const askUser = createAskUser({ store: createMemoryStore(), channels: [chat] });
const result = await askUser.ask(
  {
    questions: [
      {
        id: "deploy_target",
        header: "Deploy",
        question: "Where should I deploy?",
        options: [
          { label: "Staging (Recommended)", description: "Safe, reversible" },
          { label: "Production" },
        ],
      },
    ],
  },
  { target: { channel: "console", conversation: "alice" } },
);
console.log(JSON.stringify(result));
await askUser.close();
