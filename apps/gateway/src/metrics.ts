import type { AskUserBroker, AskUserEvent, QuestionRecord } from "@ask-user/core";
import { isTerminal } from "@ask-user/core";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** What `GET /metrics` sends: the Prometheus text exposition. */
export interface MetricsScrape {
  contentType: string;
  body: string;
}

/** Options of `createGatewayMetrics`. */
export interface GatewayMetricsOptions {
  broker: AskUserBroker;
  /** Open SSE streams (`GET /v1/events`), read at scrape time. */
  sseStreams?: () => number;
  /** Open MCP sessions, read at scrape time (the gauge is left out without it). */
  mcpSessions?: () => number;
  /** Node's process metrics (event-loop lag, heap, CPU…), unprefixed as prom-client names them. Default true. */
  defaultMetrics?: boolean;
  /** Pending questions counted per scrape at most (one paged `list`). Default 10,000. */
  maxPendingCounted?: number;
}

/** A gateway's metrics: its own registry (several gateways may run in one process). */
export interface GatewayMetrics {
  registry: Registry;
  scrape(): Promise<MetricsScrape>;
  /** Stops listening to the broker. */
  close(): void;
}

/** Time to answer, in seconds: from a second up to a day. */
export const ANSWER_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 14_400, 43_200, 86_400];
/** The label of a question without a target (asked through the API or MCP for an operator surface). */
export const NO_CHANNEL = "none";
/** Distinct failure reasons kept as labels; any further one is counted as `other`. */
const MAX_REASONS = 20;
const PAGE = 500;

function channelOf(record: QuestionRecord): string {
  return record.target?.channel ?? NO_CHANNEL;
}

/**
 * Counts by label values, kept in a Map per event and handed to a prom-client counter when it is read
 * (scrape): prom-client's `inc` hashes and validates the labels on every call, `labels(…)` included
 * (its children call `inc` with them). Series come out in the order they were first counted.
 */
class Tally {
  private readonly counts = new Map<string, { labels: Record<string, string>; value: number }>();

  constructor(private readonly names: readonly [string] | readonly [string, string]) {}

  /** Adds one to the series of these label values (in the order of the names). */
  add(first: string, second = ""): void {
    const key = this.names.length === 1 ? first : `${first}\n${second}`;
    const entry = this.counts.get(key);
    if (entry) {
      entry.value++;
      return;
    }
    const labels: Record<string, string> = { [this.names[0]]: first };
    if (this.names[1] !== undefined) labels[this.names[1]] = second;
    this.counts.set(key, { labels, value: 1 });
  }

  /** `collect` of the counter it feeds. */
  publish(counter: Counter<string>): void {
    counter.reset();
    for (const { labels, value } of this.counts.values()) counter.inc(labels, value);
  }
}

/**
 * The Prometheus metrics of one gateway, prefixed `ask_user_`: pending questions by channel (read from the
 * store at scrape time), questions created and ended (by status and channel), time to answer, prompt
 * deliveries and delivery failures (by channel and reason), open SSE streams and MCP sessions; plus
 * prom-client's default process metrics (`nodejs_eventloop_lag_seconds`…). Counters count the events this
 * gateway's broker sees, from its start.
 *
 * @example
 * const metrics = createGatewayMetrics({ broker, sseStreams: () => http.events.size });
 * const { contentType, body } = await metrics.scrape();
 */
export function createGatewayMetrics(options: GatewayMetricsOptions): GatewayMetrics {
  const { broker } = options;
  const registry = new Registry();
  const maxPending = options.maxPendingCounted ?? 10_000;

  new Gauge({
    name: "ask_user_questions_pending",
    help: `Questions waiting for an answer, by target channel (counted up to ${maxPending})`,
    labelNames: ["channel"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const [channel, count] of await countPending(broker, maxPending)) this.set({ channel }, count);
    },
  });
  const created = new Tally(["channel"]);
  const ended = new Tally(["status", "channel"]);
  const deliveries = new Tally(["channel"]);
  const failures = new Tally(["channel", "reason"]);
  new Counter({
    name: "ask_user_questions_created_total",
    help: "Questions created, by target channel",
    labelNames: ["channel"],
    registers: [registry],
    collect() {
      created.publish(this);
    },
  });
  new Counter({
    name: "ask_user_questions_ended_total",
    help: "Questions ended, by final status and target channel",
    labelNames: ["status", "channel"],
    registers: [registry],
    collect() {
      ended.publish(this);
    },
  });
  const answerSeconds = new Histogram({
    name: "ask_user_answer_seconds",
    help: "Time from a question's creation to its answer, in seconds, by target channel",
    labelNames: ["channel"],
    buckets: ANSWER_BUCKETS,
    registers: [registry],
  });
  new Counter({
    name: "ask_user_deliveries_total",
    help: "Prompts delivered to a channel",
    labelNames: ["channel"],
    registers: [registry],
    collect() {
      deliveries.publish(this);
    },
  });
  new Counter({
    name: "ask_user_delivery_failures_total",
    help: "Questions that could not be delivered, by channel and reason (the error's class name)",
    labelNames: ["channel", "reason"],
    registers: [registry],
    collect() {
      failures.publish(this);
    },
  });
  const sse = options.sseStreams;
  if (sse) {
    new Gauge({
      name: "ask_user_sse_streams",
      help: "Open event streams (GET /v1/events)",
      registers: [registry],
      collect() {
        this.set(sse());
      },
    });
  }
  const mcp = options.mcpSessions;
  if (mcp) {
    new Gauge({
      name: "ask_user_mcp_sessions",
      help: "Open MCP sessions",
      registers: [registry],
      collect() {
        this.set(mcp());
      },
    });
  }

  // Prompts already seen per pending question: a write that adds one is a delivery. Entries go when the
  // question ends, so the map holds pending questions only.
  const prompts = new Map<string, number>();
  const reasons = new Set<string>();
  const reasonOf = (error: string | undefined): string => {
    const name = /^([A-Za-z_$][\w$.]{0,39}):/.exec(error ?? "")?.[1] ?? "other";
    if (reasons.has(name)) return name;
    if (reasons.size >= MAX_REASONS) return "other";
    reasons.add(name);
    return name;
  };
  const onEvent = ({ type, record }: AskUserEvent) => {
    const channel = channelOf(record);
    if (type === "question.requested") created.add(channel);
    const before = prompts.get(record.id) ?? (type === "question.requested" ? 0 : undefined);
    let now = 0;
    for (const delivery of record.deliveries) {
      if (delivery.kind !== "prompt") continue;
      // A question first seen after this gateway started (a restart, another instance) is not counted.
      if (before !== undefined && now >= before) deliveries.add(delivery.channel);
      now++;
    }
    if (!isTerminal(record.status)) {
      prompts.set(record.id, now);
      return;
    }
    prompts.delete(record.id);
    // Ended by this write: `question.resolved`, or created ended already (`question.requested`).
    if (type === "question.updated") return;
    const status = record.status;
    ended.add(status, channel);
    if (status === "answered" && record.resolvedAt !== undefined) {
      answerSeconds.observe({ channel }, Math.max(0, record.resolvedAt - record.createdAt) / 1000);
    }
    if (status === "undeliverable") failures.add(channel, reasonOf(record.error));
  };
  const unsubscribe = broker.subscribe(onEvent);

  return {
    registry,
    async scrape() {
      const own = await registry.metrics();
      if (options.defaultMetrics === false) return { contentType: registry.contentType, body: own };
      return { contentType: registry.contentType, body: `${own}\n${await processMetrics().metrics()}` };
    },
    close() {
      unsubscribe();
      prompts.clear();
    },
  };
}

let processRegistry: Registry | undefined;

/**
 * prom-client's default metrics, once per process (they are the process's, and each collection starts an
 * event-loop monitor and a GC observer that are never stopped): every gateway's scrape adds them.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** Pending questions by target channel: one paged `list`, `max` records at most. */
async function countPending(broker: AskUserBroker, max: number): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  let seen = 0;
  let after: { createdAt: number; id: string } | undefined;
  while (seen < max) {
    const limit = Math.min(PAGE, max - seen);
    const page = await broker.list({ status: "pending" }, { limit, ...(after ? { after } : {}) });
    for (const record of page) counts.set(channelOf(record), (counts.get(channelOf(record)) ?? 0) + 1);
    seen += page.length;
    const last = page.at(-1);
    if (!last || page.length < limit) break;
    after = { createdAt: last.createdAt, id: last.id };
  }
  return counts;
}
