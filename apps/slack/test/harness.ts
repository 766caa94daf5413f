/** Shared harness: a fake Slack per test, the real Bolt (HTTP or Socket Mode), a broker; all closed afterwards. */
import { createAskUser, createMemoryStore, type QuestionStore } from "@ask-user/core";
import type {
  AskUserBroker,
  AskUserLogger,
  Clock,
  Coordination,
  QuestionRecord,
  Target,
} from "@ask-user/core/channel";
import {
  createFakeSlack,
  type FakeSlack,
  type FakeSlackMessage,
  type FakeSlackOptions,
  type FakeSlackUser,
} from "@ask-user/testkit/slack";
import { App, LogLevel } from "@slack/bolt";
import { afterEach, expect } from "vitest";
import { createSlackChannel, type SlackChannel } from "../src/index.ts";
import { createWebhookReceiver, type WebhookReceiver } from "../src/ingress/receiver.ts";
import { ACK_DEADLINE_MS, EVENTS_PATH } from "../src/limits.ts";
import { serveHandler } from "./serve.ts";

export type Mode = "http" | "socket";
export const MODES: Mode[] = ["http", "socket"];

export const CHANNEL = "C0GENERAL";
export const ALICE = { id: "U0ALICE", name: "alice", display_name: "alice" };
export const BOB = { id: "U0BOB", name: "bob" };
export const GRETA = { id: "U0GRETA", name: "greta", locale: "de-DE" };

export const DEPLOY = {
  questions: [
    {
      id: "env",
      header: "Deploy",
      question: "Where should I deploy the release?",
      options: [
        { label: "Staging (Recommended)", description: "Safe: reversible" },
        { label: "Production", description: "Customers get it right away" },
      ],
    },
  ],
};

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A logger that keeps what it is told (tests assert there were no errors). */
export function recordingLogger(): AskUserLogger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    warn: (details, message) => lines.push(`warn ${message} ${JSON.stringify(details)}`),
    error: (details, message) => lines.push(`error ${message} ${JSON.stringify(details)}`),
  };
}

/** A fake Slack (by default as Slack behaves: the app's own posts come back as events), closed after the test. */
export async function fakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const slack = await createFakeSlack(options);
  cleanups.push(() => slack.close());
  return slack;
}

/** The HTTP receiver of each app in HTTP mode (the one the plugin uses: no port of its own). */
const receivers = new WeakMap<App, WebhookReceiver>();

/** A real Bolt app talking to the fake; not started. HTTP mode: with the app's web receiver. */
export function boltApp(slack: FakeSlack, mode: Mode, retries = 0): App {
  const clientOptions = {
    slackApiUrl: slack.apiUrl,
    retryConfig: retries === 0 ? { retries: 0 } : { retries, minTimeout: 0, maxTimeout: 0 },
  };
  if (mode === "socket") {
    return new App({
      token: slack.botToken,
      appToken: slack.appToken,
      socketMode: true,
      logLevel: LogLevel.ERROR,
      clientOptions,
    });
  }
  const receiver = createWebhookReceiver({ signingSecret: slack.signingSecret });
  const app = new App({ token: slack.botToken, receiver, logLevel: LogLevel.ERROR, clientOptions });
  receivers.set(app, receiver);
  return app;
}

/**
 * Starts the app (Socket Mode, or HTTP: its receiver's handler served on 127.0.0.1:0 at
 * `/channels/slack/events`, with the fake pointed at it); stopped after the test.
 */
export async function startApp(slack: FakeSlack, app: App, mode: Mode): Promise<() => Promise<void>> {
  let stopped = false;
  let closeServer = async (): Promise<void> => undefined;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await closeServer();
    await app.stop();
    if (mode === "socket") await slack.waitUntil(() => slack.socketConnections() === 0);
    else slack.setRequestUrl(undefined);
  };
  cleanups.push(stop);
  await app.start();
  const receiver = receivers.get(app);
  if (mode === "http" && receiver) {
    const server = await serveHandler(receiver.handle, [EVENTS_PATH]);
    closeServer = () => server.close();
    slack.setRequestUrl(server.url);
  }
  return stop;
}

/** Everything a test talks to. */
export interface World {
  slack: FakeSlack;
  app: App;
  broker: AskUserBroker;
  slackChannel: SlackChannel;
  store: QuestionStore;
  logger: ReturnType<typeof recordingLogger>;
  alice: FakeSlackUser;
  bob: FakeSlackUser;
  greta: FakeSlackUser;
  stop(): Promise<void>;
}

/** Options of {@link world}. */
export interface WorldOptions {
  slack?: FakeSlack;
  store?: QuestionStore;
  clock?: Clock;
  retries?: number;
  echoBotMessages?: boolean;
  /** Registers the host's own listeners before the channel is mounted. */
  host?: (app: App) => void;
  /** Where "handled once" is recorded (default: this process). */
  coordination?: Coordination;
}

/** A fake Slack (or the given one), a started Bolt app with the channel mounted, and a broker. */
export async function world(mode: Mode, options: WorldOptions = {}): Promise<World> {
  const slack =
    options.slack ??
    (await fakeSlack(
      options.echoBotMessages === undefined ? {} : { echoBotMessages: options.echoBotMessages },
    ));
  const app = boltApp(slack, mode, options.retries);
  options.host?.(app);
  const logger = recordingLogger();
  const store = options.store ?? createMemoryStore();
  const slackChannel = createSlackChannel({
    app,
    logger,
    ...(options.coordination ? { coordination: options.coordination } : {}),
  });
  const created = createAskUser({
    store,
    channels: [slackChannel],
    logger,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  await slackChannel.start(created);
  const stopApp = await startApp(slack, app, mode);
  let closed = false;
  const stop = async () => {
    if (closed) return;
    closed = true;
    await created.idle();
    await created.close();
    await stopApp();
  };
  cleanups.push(stop);
  return {
    slack,
    app,
    broker: created,
    slackChannel,
    store,
    logger,
    alice: slack.user(ALICE),
    bob: slack.user(BOB),
    greta: slack.user(GRETA),
    stop,
  };
}

/** Asks and returns the delivered record plus the pending result. */
export async function ask(
  w: World,
  input: unknown,
  conversation: string = CHANNEL,
  creator: string | undefined = ALICE.id,
): Promise<{ record: QuestionRecord; ts: string; result: ReturnType<AskUserBroker["wait"]> }> {
  const target: Target = { channel: "slack", conversation };
  const record = await w.broker.create(input, {
    target,
    ...(creator ? { creator: { channel: "slack", userId: creator, displayName: `@${creator}` } } : {}),
  });
  const ts = record.deliveries[0]?.messageId;
  if (ts === undefined) throw new Error(`not delivered: ${record.status} ${record.error ?? ""}`);
  const result = w.broker.wait(record.id);
  result.catch(() => undefined);
  return { record, ts, result };
}

/** The action blocks of a message (empty once the controls are gone). */
export function actions(message: FakeSlackMessage | undefined): unknown[] {
  return (message?.blocks ?? []).filter((block) => block.type === "actions");
}

/** Waits until a message's text is `text` (the summary edit) and returns it. */
export function waitForText(
  slack: FakeSlack,
  channel: string,
  ts: string,
  text: string,
): Promise<FakeSlackMessage> {
  return slack.waitUntil(() => {
    const message = slack.message(channel, ts);
    return message?.text === text ? message : undefined;
  });
}

/** Every request the fake handed to the app was acknowledged within Slack's 3 s. */
export function expectAllAcked(slack: FakeSlack): void {
  expect(slack.deliveries.length).toBeGreaterThan(0);
  for (const delivery of slack.deliveries) {
    expect(delivery.status, `${delivery.type} answered ${delivery.status} ${delivery.error ?? ""}`).toBe(200);
    expect(delivery.ms).toBeLessThan(ACK_DEADLINE_MS);
  }
}

/** The Web API calls of one method so far. */
export function callsOf(slack: FakeSlack, method: string) {
  return slack.calls.filter((call) => call.method === method);
}

/** Waits until the message `ts` carries the app's ✅ reaction (a text answer's confirmation). */
export function waitForConfirmation(
  slack: FakeSlack,
  channel: string,
  ts: string,
): Promise<FakeSlackMessage> {
  return slack.waitUntil(() => {
    const message = slack.message(channel, ts);
    const reacted = message?.reactions?.some(
      (r) => r.name === "white_check_mark" && r.users.includes(slack.bot.userId),
    );
    return reacted ? message : undefined;
  });
}
