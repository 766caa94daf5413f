import type { QuestionStore } from "@ask-user/core/store";
import { storeContractTests } from "@ask-user/core/testing";
import { createSqliteStore } from "../src/index.ts";
import { tempPaths } from "./temp.ts";

const tempPath = tempPaths();

function pathOf(store: QuestionStore): string {
  if ("path" in store && typeof store.path === "string") return store.path;
  throw new Error("expected a SQLite store");
}

// A second store on the same file is another process's view: it shares records and compare-and-set,
// but its subscribers do not hear about the first store's writes (a SQLite gateway runs alone).
storeContractTests(() => createSqliteStore({ path: tempPath() }), {
  name: "sqlite",
  makePeer: (store) => createSqliteStore({ path: pathOf(store) }),
  peerSeesChanges: false,
});
