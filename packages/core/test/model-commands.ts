/**
 * The commands of the lifecycle model test: every step alone, or two at once in a concurrent pair
 * (`Promise.all`, on either broker, mostly racing on one question). After each, the model is updated
 * from what every caller was told and the invariants are checked.
 */
import fc from "fast-check";
import { applyEffects, checkInvariants, checkRace } from "./model-invariants.ts";
import { Other, Reply, Tap } from "./model-people.ts";
import { FREE_TEXTS, pickArb, promptInputArb, replyShapeArb } from "./model-prompts.ts";
import { Advance, Ask, Operator, PEOPLE, Restart, type Step } from "./model-steps.ts";
import { GONE, type World } from "./model-world.ts";

/** Two steps at once; with `same`, both act on the first one's question. */
class Pair implements fc.AsyncCommand<World, World> {
  constructor(
    readonly a: Step,
    readonly b: Step,
    readonly same: boolean,
  ) {}
  check(world: Readonly<World>): boolean {
    return this.a.check(world) && this.b.check(world);
  }
  async run(_model: World, world: World): Promise<void> {
    const first =
      world.questions.length > 0 ? world.questions[this.a.ref % world.questions.length] : undefined;
    const before = first && (await world.store.get(first.id));
    const pendingBefore = before?.status === "pending" && world.clock.now() < before.expiresAt;
    const effects = await Promise.all([
      this.a.act(world),
      this.b.act(world, this.same ? this.a.ref : undefined),
    ]);
    applyEffects(effects);
    checkRace(effects, pendingBefore);
    await checkInvariants(world);
  }
  toString(): string {
    return `together[${this.a} ‖ ${this.b}${this.same ? " (same question)" : ""}]`;
  }
}

const brokerArb = fc.constantFrom<0 | 1>(0, 1);
const refArb = fc.nat({ max: 20 });
const personArb = fc.constantFrom(...PEOPLE, PEOPLE[0], PEOPLE[1]);
const picksArb = fc.tuple(pickArb, pickArb, pickArb);

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        brokerArb,
        promptInputArb,
        fc.constantFrom("room-1", "room-1", "room-1", "room-2", "room-2", GONE),
      )
      .map(([b, input, room]) => new Ask(b, input, room)),
  },
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        brokerArb,
        refArb,
        fc.nat({ max: 2 }),
        fc.oneof(
          { weight: 9, arbitrary: fc.nat({ max: 3 }) },
          { weight: 1, arbitrary: fc.constant("skip" as const) },
        ),
        personArb,
      )
      .map((a) => new Tap(...a)),
  },
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        brokerArb,
        refArb,
        fc.oneof(
          { weight: 9, arbitrary: replyShapeArb },
          { weight: 1, arbitrary: fc.constantFrom("skip", "überspringen", "/skip") },
        ),
        personArb,
        fc.constantFrom("en", "de", undefined),
        fc.nat({ max: 3 }),
      )
      .map((a) => new Reply(...a)),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        brokerArb,
        refArb,
        fc.nat({ max: 2 }),
        fc.option(fc.constantFrom(...FREE_TEXTS), { nil: undefined }),
        personArb,
      )
      .map((a) => new Other(...a)),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(brokerArb, refArb, fc.constantFrom("answer", "answer", "skip", "cancel"), picksArb)
      .map((a) => new Operator(...a)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(1_000, 29_000, 60_000, 300_000, 900_000).map((ms) => new Advance(ms)),
  },
  { weight: 1, arbitrary: brokerArb.map((b) => new Restart(b, 0)) },
);

/** Single steps and concurrent pairs (mostly racing on one question). */
export const commandsArb = fc.commands<World, World, false>(
  [
    stepArb,
    stepArb,
    fc
      .tuple(stepArb, stepArb, fc.boolean(), fc.boolean())
      .map(([a, b, same, also]) => new Pair(a, b, same || also)),
  ],
  { maxCommands: 30, size: "+1" },
);
