import type { QuestionStore } from "@ask-user/core/store";
import { storeContractTests } from "@ask-user/core/testing";
import { createRedisStore } from "../src/index.ts";
import { freshPrefix, useRedisServer } from "./redis-server.ts";

const server = useRedisServer();

function prefixOf(store: QuestionStore): string {
  if ("keyPrefix" in store && typeof store.keyPrefix === "string") return store.keyPrefix;
  throw new Error("expected a Redis store");
}

// Each test gets its own key prefix on one real server. The peer is another instance (its own two
// connections) on the same prefix: it shares records and compare-and-set, and hears every write.
storeContractTests(() => createRedisStore({ url: server().url, keyPrefix: freshPrefix() }), {
  name: "redis",
  makePeer: async (store) => {
    const peer = createRedisStore({ url: server().url, keyPrefix: prefixOf(store) });
    await peer.ready;
    return peer;
  },
  peerSeesChanges: true,
});
