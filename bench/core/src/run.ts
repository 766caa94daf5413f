import {
  askUserInputSchema,
  createAskUser,
  createMemoryStore,
  encodeAction,
  interpretReply,
  normalizeAskUserInput,
  type QuestionRecord,
} from "@ask-user/core";
import { gc, machine, opsPerSecond, opsPerSecondSync, row } from "./measure.ts";

const deployQuestion = {
  id: "deploy_target",
  header: "Deploy",
  question: "Where should I deploy?",
  options: [{ label: "Staging (Recommended)", description: "Safe, reversible" }, { label: "Production" }],
};
const input = {
  questions: [
    deployQuestion,
    {
      id: "regions",
      header: "Regions",
      question: "Which regions?",
      options: [{ label: "EU" }, { label: "US" }, { label: "Asia" }],
      multiSelect: true,
    },
  ],
  timeoutSeconds: 600,
};
const single = { questions: [deployQuestion] };
const prompt = normalizeAskUserInput(input);
const replies = ["1: 2\n2: EU, asia", "deploy_target = staging", "Regions) 1 3", "skip", "other: tomorrow"];
const room = { channel: "bench", conversation: "room" };
const silent = { warn() {}, error() {} };

function bareRecord(id: string): QuestionRecord {
  return {
    id,
    version: 1,
    prompt: normalizeAskUserInput(single),
    answerers: { kind: "conversation" },
    locale: "en",
    createdAt: 0,
    expiresAt: 900_000,
    status: "pending",
    tokens: ["AAAAAAAAAAAAAAAA"],
    deliveries: [],
  };
}

console.log(`# @ask-user/core benchmarks — ${new Date().toISOString()}`);
console.log(`# machine: ${machine()}`);
console.log("");

// Parsing: interpretReply against the least any parser must do (NFKC + case fold of the same text).
let i = 0;
const fold = opsPerSecondSync(() => replies[i++ % replies.length]?.normalize("NFKC").toLowerCase());
const interpret = opsPerSecondSync(() => interpretReply(prompt, replies[i++ % replies.length] ?? ""));
console.log(
  row("interpretReply (5 mixed replies)", interpret, "ops/s", { name: "NFKC+lowercase", value: fold }),
);

// Normalising: our normaliser (every problem listed) against zod's own parse of the same input.
const zodParse = opsPerSecondSync(() => askUserInputSchema.safeParse(input));
const normalize = opsPerSecondSync(() => normalizeAskUserInput(input));
console.log(
  row("normalizeAskUserInput (2 questions)", normalize, "ops/s", { name: "zod safeParse", value: zodParse }),
);

// Broker cycles on the memory store, against the store's own create + compare-and-set.
{
  const store = createMemoryStore();
  let n = 0;
  const bare = await opsPerSecond(async () => {
    const record = bareRecord(`bare-${n++}`);
    await store.create(record);
    await store.compareAndSet(1, {
      ...record,
      version: 2,
      status: "answered",
      answers: { deploy_target: ["x"] },
    });
  });
  const baseline = { name: "bare store create+CAS", value: bare };

  const api = createAskUser({ store: createMemoryStore(), channels: [], logger: silent });
  const apiCycle = await opsPerSecond(async () => {
    const record = await api.create(single, {});
    const outcome = await api.answer(
      record.id,
      { deploy_target: ["Production"] },
      { channel: "http", userId: "op" },
    );
    if (!outcome.ok) throw new Error(outcome.message);
  });
  console.log(row("broker create→answer() cycles (memory store)", apiCycle, "cycles/s", baseline));

  const sent: string[] = [];
  const chat = {
    name: "bench",
    capabilities: { buttons: true, edit: true, privateNotices: true },
    deliver: async () => ({ messageId: String(sent.push("prompt")) }),
    finalize: async () => undefined,
    notify: async () => ({ messageId: String(sent.push("notice")) }),
  };
  const taps = createAskUser({
    store: createMemoryStore(),
    channels: [chat],
    logger: silent,
    answerers: "conversation",
  });
  const tapCycle = await opsPerSecond(async () => {
    const record = await taps.create(single, { target: room });
    const data = encodeAction(record.tokens[0] ?? "", { kind: "option", index: 1 });
    const outcome = await taps.handleAction({ ...room, userId: "u", data });
    if (outcome.kind !== "answered") throw new Error(outcome.kind);
  });
  console.log(row("broker create→deliver→tap cycles (memory store)", tapCycle, "cycles/s", baseline));
  await Promise.all([api.close(), taps.close()]);
}

// Memory: heap bytes per pending question at 100,000 pending (stored record + deadline entry).
{
  const count = 100_000;
  const broker = createAskUser({ store: createMemoryStore(), channels: [], logger: silent });
  await broker.ready;
  // Let what earlier sections left behind (closed brokers, compiled code) be collected first.
  for (let round = 0; round < 3; round++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    gc();
  }
  const before = process.memoryUsage().heapUsed;
  for (let k = 0; k < count; k++) await broker.create(input, { runId: `run-${k % 100}` });
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  const after = process.memoryUsage().heapUsed;
  const pending = await broker.list({ status: "pending" });
  const jsonBytes = JSON.stringify(pending.slice(0, 1000)).length / 1000;
  const label = `heap per pending question (${pending.length.toLocaleString("en-US")} pending)`;
  console.log(row(label, (after - before) / count, "bytes", { name: "its JSON size", value: jsonBytes }));
  await broker.close();
}
