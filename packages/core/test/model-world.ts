/**
 * The system under test of the lifecycle model test: one memory store shared by two brokers (two
 * processes), a fake clock, and one chat platform that both reach through an in-memory channel. Next
 * to it, the model: what people were told was recorded, who was told they won, which free texts were
 * submitted. `checkInvariants` compares the two after every command.
 */
import { type AskUserBroker, createAskUser } from "../src/broker/broker.ts";
import { type AskUserResult, isTerminal, type QuestionStatus } from "../src/model/types.ts";
import type { Channel, DeliverRequest, FinalizeRequest, Notice } from "../src/ports/channel.ts";
import type { QuestionStore } from "../src/ports/store.ts";
import type { Prompt } from "../src/schema/schema.ts";
import { createMemoryStore } from "../src/stores/memory.ts";
import { createFakeClock, type FakeClock } from "../src/testing/fake-clock.ts";
import { recordingLogger, T0 } from "./helpers.ts";

/** Where prompts to this conversation fail to arrive (the question ends `undeliverable`). */
export const GONE = "room-gone";

/** The chat platform as its users see it: every prompt, every edit to a summary, every notice. */
export interface ModelPlatform {
  delivered: DeliverRequest[];
  finalized: FinalizeRequest[];
  notices: Notice[];
  /** Current text of each message by id. */
  messages: Map<string, string>;
  /** The bot's answer (a message people can reply to) to each person's message, by that message's id. */
  answerTo: Map<string, string>;
  channel: Channel;
}

function createPlatform(): ModelPlatform {
  let nextId = 1;
  const platform: ModelPlatform = {
    delivered: [],
    finalized: [],
    notices: [],
    messages: new Map(),
    answerTo: new Map(),
    channel: {
      name: "chat",
      capabilities: { buttons: true, edit: true, privateNotices: true },
      async deliver(request) {
        if (request.record.target?.conversation === GONE) throw new Error("chat not found");
        platform.delivered.push(request);
        const messageId = `m${nextId++}`;
        platform.messages.set(messageId, request.text);
        return { messageId };
      },
      async finalize(request) {
        platform.finalized.push(request);
        platform.messages.set(request.delivery.messageId, request.summary);
      },
      async notify(notice) {
        platform.notices.push(notice);
        // An ephemeral notice cannot be replied to: it has no message to remember.
        if (notice.private) return undefined;
        const messageId = `m${nextId++}`;
        platform.messages.set(messageId, notice.text);
        if (notice.replyTo !== undefined) platform.answerTo.set(notice.replyTo, messageId);
        return { messageId };
      },
    },
  };
  return platform;
}

/** What the model knows about one question. */
export interface ModelQuestion {
  id: string;
  prompt: Prompt;
  tokens: string[];
  conversation: string;
  /** The prompt message, when it was delivered. */
  messageId: string | undefined;
  /** Messages the bot sent for this question that people can reply to: the prompt, then confirmations. */
  replyable: string[];
  /**
   * Per question id: the values of the latest answer people were told was recorded. Two when the latest
   * recorded answers raced (either may have been the later one).
   */
  confirmed: Map<string, string[][]>;
  /** Per question id: every free text anyone submitted for it (trimmed), recorded or not. */
  freeTexts: Map<string, Set<string>>;
  /** How many people were told they answered / skipped / cancelled it. */
  wins: { answered: number; skipped: number; cancelled: number };
  /** Results the agent got from `wait`. */
  results: AskUserResult[];
}

/** The system and the model, side by side (fast-check's model and real are the same object here). */
export interface World {
  clock: FakeClock;
  store: QuestionStore;
  platform: ModelPlatform;
  /** The two running brokers ("processes"); a restart replaces one. */
  brokers: [AskUserBroker, AskUserBroker];
  /** Every broker ever started, to close them all. */
  started: AskUserBroker[];
  questions: ModelQuestion[];
  /** Invariant breaches seen in the store's write stream, reported at the next check. */
  violations: string[];
  /** What the brokers logged (errors there are bugs handled in the background). */
  logger: ReturnType<typeof recordingLogger>;
  /** Ids for the messages people send. */
  nextMessage: number;
  /** Every agent's `wait()`, with the broker it waits on and whether it has settled. */
  waits: Array<{ broker: AskUserBroker; question: string; settled: boolean }>;
  /** Brokers whose `close()` has resolved: none of their waits may still be waiting. */
  closed: Set<AskUserBroker>;
  startBroker(): AskUserBroker;
}

/** Starts the world: one store, one clock, one platform, two brokers letting anyone in the room answer. */
export function createWorld(): World {
  const clock = createFakeClock(T0);
  const store = createMemoryStore({ clock }); // leases (brokers' liveness) on the same clock
  const platform = createPlatform();
  const logger = recordingLogger();
  const started: AskUserBroker[] = [];
  const startBroker = () => {
    const broker = createAskUser({
      store,
      channels: [platform.channel],
      clock,
      logger,
      answerers: "conversation",
    });
    started.push(broker);
    return broker;
  };
  const world: World = {
    clock,
    store,
    platform,
    brokers: [startBroker(), startBroker()],
    started,
    questions: [],
    violations: [],
    logger,
    nextMessage: 1,
    waits: [],
    closed: new Set(),
    startBroker,
  };
  watchWrites(world);
  return world;
}

/** Once a record is terminal, no write may change its status or answers, nor reopen it. */
function watchWrites(world: World): void {
  const ended = new Map<string, { status: QuestionStatus; answers: string }>();
  world.store.subscribe(({ record, previousStatus }) => {
    if (record.awaitingText !== undefined) {
      world.violations.push(`question ${record.id}: an Other… that opens a modal stored awaitingText`);
    }
    const answers = JSON.stringify(record.answers ?? null);
    const first = ended.get(record.id);
    if (first && (first.status !== record.status || first.answers !== answers)) {
      world.violations.push(
        `question ${record.id} ended ${first.status} ${first.answers}, then a write made it ${record.status} ${answers}`,
      );
    }
    if (!first && isTerminal(record.status)) ended.set(record.id, { status: record.status, answers });
    if (previousStatus !== undefined && isTerminal(previousStatus) && !isTerminal(record.status)) {
      world.violations.push(`question ${record.id} was reopened`);
    }
  });
}

/** Waits for the background work (message edits) of every broker ever started. */
export async function idleAll(world: World): Promise<void> {
  for (const broker of world.started) await broker.idle();
}

/** Closes every broker, then the store. */
export async function closeWorld(world: World): Promise<void> {
  for (const broker of world.started) await broker.close();
  await world.store.close();
}
