import { describe, expect, it } from "vitest";
import * as channel from "../src/channel.ts";
import * as main from "../src/index.ts";
import * as store from "../src/store.ts";
import * as testing from "../src/testing/index.ts";

describe("entry points by audience", () => {
  it("gives applications the broker, the schema, results, errors and hosting, not a channel's or a store's internals", () => {
    for (const name of [
      "createAskUser",
      "normalizeAskUserInput",
      "askUserTool",
      "checkAnswers",
      "askUserResultSchema",
    ])
      expect(main).toHaveProperty(name);
    for (const name of [
      "createMemoryStore",
      "createTextChannel",
      "isChannelPlugin",
      "codeOfStatus",
      "renderSummary",
    ])
      expect(main).toHaveProperty(name);
    for (const name of [
      "compareKey",
      "awaitsSummary",
      "encodeAction",
      "decodeAction",
      "buildPromptView",
      "fitView",
      "createPromptMessages",
      "defineChannel",
      "matchesFilter",
      "needsRepair",
      "keepLease",
      "checkAnswerer",
      "refusalForStatus",
    ])
      expect(main, name).not.toHaveProperty(name);
  });

  it("gives platform authors one definition, the prompt view, form state and the codec", () => {
    for (const name of [
      "defineChannel",
      "buildPromptView",
      "fitView",
      "renderViewText",
      "createPromptMessages",
      "encodeAction",
      "decodeAction",
      "isConfirmation",
      "keepLease",
      "ChannelError",
      "renderSummary",
      "createOnce",
      "createBackground",
      "notReadyResponse",
      "adapterOf",
    ])
      expect(channel).toHaveProperty(name);
    expect(channel).not.toHaveProperty("createAskUser");
    for (const name of ["createOnce", "createBackground", "notReadyResponse"])
      expect(main, name).not.toHaveProperty(name);
  });

  it("gives store authors the filter test and what needs repair, and tests the contract", () => {
    for (const name of ["matchesFilter", "needsRepair", "TERMINAL_STATUSES"])
      expect(store).toHaveProperty(name);
    expect(store).not.toHaveProperty("createAskUser");
    expect(testing).toHaveProperty("storeContractTests");
    expect(testing).toHaveProperty("createFakeClock");
  });
});
