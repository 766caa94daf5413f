import { describe, expect, it } from "vitest";
import { createAskUser } from "../src/broker/broker.ts";
import { createMemoryCoordination } from "../src/ports/coordination.ts";
import {
  type ChannelAdapter,
  defineChannel,
  InvalidChannelConfigError,
  isChannelPlugin,
} from "../src/ports/plugin.ts";
import { createMemoryStore } from "../src/stores/memory.ts";

const quiet = { warn: () => undefined, error: () => undefined };

describe("defineChannel", () => {
  it("turns one definition into the plugin hosts run, creating the adapter only on create", async () => {
    const events: string[] = [];
    const plugin = defineChannel<{ room: string }>({
      name: "chat",
      title: "Chat",
      variables: [{ name: "CHAT_ROOM", description: "The room", required: true }],
      readConfig(env) {
        if (!env.CHAT_ROOM) throw new InvalidChannelConfigError("chat", ["CHAT_ROOM is required."]);
        return { room: env.CHAT_ROOM };
      },
      parseConversation: (c) => (c.startsWith("#") ? c : undefined),
      async create({ config }) {
        events.push(`create ${config.room}`);
        const adapter: ChannelAdapter = {
          capabilities: { buttons: false, edit: false, privateNotices: false },
          describe: `chat (${config.room})`,
          async deliver() {
            events.push("deliver");
            return { messageId: "1" };
          },
          async finalize() {},
          async notify() {
            return undefined;
          },
          async start() {
            events.push("start");
          },
          async stop() {
            events.push("stop");
          },
          handleWebhook: async () => new Response("ok"),
        };
        return adapter;
      },
    });
    expect(isChannelPlugin(plugin)).toBe(true);
    expect(plugin.enabled({})).toBe(false);
    expect(plugin.enabled({ CHAT_ROOM: "#ops" })).toBe(true);
    expect(() => plugin.readConfig({})).toThrow(InvalidChannelConfigError);
    expect(plugin.parseConversation("#ops")).toBe("#ops");
    expect(events).toEqual([]);
    const instance = await plugin.create({
      config: plugin.readConfig({ CHAT_ROOM: "#ops" }),
      logger: quiet,
      coordination: createMemoryCoordination(),
      instanceId: "1",
    });
    expect(instance.name).toBe("chat");
    expect(instance.describe).toBe("chat (#ops)");
    expect(await (await instance.handleWebhook?.(new Request("http://x/")))?.text()).toBe("ok");
    const broker = createAskUser({ store: createMemoryStore(), channels: [instance], logger: quiet });
    await instance.start(broker);
    const asked = await broker.create(
      {
        questions: [{ id: "a", header: "A", question: "A?", options: [{ label: "Yes" }, { label: "No" }] }],
      },
      { target: { channel: "chat", conversation: "#ops" } },
    );
    await expect.poll(() => events).toContain("deliver");
    expect(asked.id).toBeTruthy();
    await instance.stop();
    await broker.close();
    expect(events).toEqual(["create #ops", "start", "deliver", "stop"]);
  });
});
