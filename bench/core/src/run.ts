import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  askUserInputSchema,
  createAskUser,
  createMemoryStore,
  interpretReply,
  normalizeAskUserInput,
  type QuestionRecord,
} from "@ask-user/core";
import { encodeAction } from "@ask-user/core/channel";
import { machine, opsPerSecond, opsPerSecondSync, row } from "./measure.ts";

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
  row(
    "interpretReply (5 mixed replies)",
    interpret,
    "ops/s",
    { name: "NFKC+lowercase", value: fold },
    "goal ≥ 500,000",
  ),
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

// Memory: heap bytes per pending question at 1,000,000 pending (stored record, indexes, deadline entry),
// in a process of its own so that nothing else on its heap counts.
{
  const child = spawnSync(
    process.execPath,
    [
      "--expose-gc",
      "--max-old-space-size=4096",
      "--conditions=source",
      "--import",
      "tsx",
      fileURLToPath(new URL("./heap.ts", import.meta.url)),
    ],
    { encoding: "utf8", maxBuffer: 1 << 20 },
  );
  if (child.status !== 0) throw new Error(`heap figure failed: ${child.stderr}`);
  const heap = JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}") as {
    count: number;
    bytesPerQuestion: number;
    jsonBytes: number;
    ms: number;
  };
  const label = `heap per pending question (${heap.count.toLocaleString("en-US")} pending)`;
  console.log(
    row(
      label,
      heap.bytesPerQuestion,
      "bytes",
      { name: "its JSON size", value: heap.jsonBytes },
      `goal ≤ 1,024; created in ${(heap.ms / 1000).toFixed(1)} s`,
    ),
  );
}
