import fc from "fast-check";
import { describe, it } from "vitest";
import { commandsArb } from "./model-commands.ts";
import { checkEnd } from "./model-invariants.ts";
import { closeWorld, createWorld } from "./model-world.ts";

/**
 * A fixed seed keeps CI deterministic; on failure fast-check prints the seed, the shrunk command list and
 * the `path` to replay it (pass `{ seed, path, endOnFailure: true }` below).
 */
const SEED = 20_260_110;

describe("the question lifecycle, as a model", () => {
  it("keeps one final state, every confirmed answer and one winner per question, across two brokers, races, deadlines and restarts", async () => {
    await fc.assert(
      fc.asyncProperty(commandsArb, async (commands) => {
        const world = createWorld();
        try {
          await fc.asyncModelRun(() => ({ model: world, real: world }), commands);
          await checkEnd(world);
        } finally {
          await closeWorld(world);
        }
      }),
      { numRuns: 80, seed: SEED },
    );
  }, 60_000);
});
