import { describe, expect, it } from "vitest";
import type { Channel, ChannelCapabilities, DeliverRequest } from "../src/ports/channel.ts";
import { adapterOf, defineChannel } from "../src/ports/plugin.ts";

/** A channel as a class: its methods need `this`, its capabilities change once it is ready. */
class ChatChannel implements Channel {
  readonly name = "chat";
  capabilities: ChannelCapabilities = { buttons: false, edit: false, privateNotices: false };
  sent: string[] = [];
  readonly extra = "not a port member";
  async deliver({ record }: DeliverRequest) {
    this.sent.push(record.id);
    return { messageId: `m${this.sent.length}` };
  }
  async finalize() {}
  async notify() {
    return undefined;
  }
  isDirect(conversation: string) {
    return conversation.startsWith("@");
  }
  async start() {
    throw new Error("the channel's own start must not be taken");
  }
}

const deliverRequest = { record: { id: "q1" } } as DeliverRequest;

describe("adapterOf", () => {
  it("takes the channel's port members, read when used, with `this` kept the channel", async () => {
    const channel = new ChatChannel();
    const adapter = adapterOf(channel, { describe: "chat", start: async () => {}, stop: async () => {} });

    await expect(adapter.deliver(deliverRequest)).resolves.toEqual({ messageId: "m1" });
    expect(channel.sent).toEqual(["q1"]);
    expect(adapter.isDirect?.("@ann")).toBe(true);
    channel.capabilities = { buttons: true, edit: true, privateNotices: true };
    expect(adapter.capabilities.buttons).toBe(true);
    // Optional members the channel lacks stay absent (the broker checks for them).
    expect("refresh" in adapter).toBe(false);
    expect(adapter.displayName).toBeUndefined();
  });

  it("takes the lifecycle from its second argument, getters live, and never the channel's name or extras", async () => {
    const channel = new ChatChannel();
    const events: string[] = [];
    let mode = "idle";
    const adapter = adapterOf(channel, {
      get describe() {
        return `chat (${mode})`;
      },
      async start() {
        events.push("start");
      },
      async stop() {
        events.push("stop");
      },
      notify: async () => ({ messageId: "overridden" }),
    });

    expect(adapter.describe).toBe("chat (idle)");
    mode = "connected";
    expect(adapter.describe).toBe("chat (connected)");
    await adapter.start({} as never);
    await adapter.stop();
    expect(events).toEqual(["start", "stop"]);
    await expect(adapter.notify({} as never)).resolves.toEqual({ messageId: "overridden" });
    expect(adapter).not.toHaveProperty("name");
    expect(adapter).not.toHaveProperty("extra");
  });

  it("is an adapter defineChannel names and hosts run", async () => {
    const channel = new ChatChannel();
    const plugin = defineChannel({
      name: "chat",
      title: "Chat",
      variables: [],
      readConfig: () => ({}),
      parseConversation: (c) => c,
      create: async () =>
        adapterOf(channel, { describe: "chat", start: async () => {}, stop: async () => {} }),
    });
    const quiet = { warn: () => undefined, error: () => undefined };
    const instance = await plugin.create({
      config: {},
      logger: quiet,
      coordination: {} as never,
      instanceId: "i",
    });

    expect(instance.name).toBe("chat");
    expect(instance.describe).toBe("chat");
    await expect(instance.deliver(deliverRequest)).resolves.toEqual({ messageId: "m1" });
  });
});
