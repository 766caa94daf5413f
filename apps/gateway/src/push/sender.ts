import type { AskUserBroker, QuestionRecord } from "@ask-user/core";
import { describeError } from "@ask-user/core";
import { clipText } from "@ask-user/core/channel";
import type { Logger } from "pino";
import webpush from "web-push";
import type { VapidKeys } from "./keys.ts";
import type { PushSubscriptionRecord, PushSubscriptions } from "./subscriptions.ts";

/** What the service worker gets in a push: what to show and where a click goes. */
export interface PushPayload {
  /** The question's id (the notification's tag: one notification per question). */
  id: string;
  title: string;
  body: string;
  /** Where a click opens the panel: `/#q=<id>`. */
  url: string;
}

/** How long one push service may take to answer, in ms. */
export const PUSH_TIMEOUT_MS = 10_000;
/** A push service keeps a message for the question's time left, but at most a day and at least a minute. */
const MAX_TTL_SECONDS = 86_400;
const MAX_TITLE = 120;
const MAX_BODY = 240;

/** The notification of a new question: its headers as the title, the first question as the body. */
export function pushPayloadOf(record: QuestionRecord): PushPayload {
  const questions = record.prompt.questions;
  const title =
    questions.length === 1 ? (questions[0]?.header ?? "") : questions.map((q) => q.header).join(" · ");
  const first = questions[0]?.question ?? "";
  const body = questions.length > 1 ? `${first} (+${questions.length - 1})` : first;
  return {
    id: record.id,
    title: clipText(title, MAX_TITLE, "codePoint"),
    body: clipText(body, MAX_BODY, "codePoint"),
    url: `/#q=${encodeURIComponent(record.id)}`,
  };
}

/** Options of {@link createPushSender}. */
export interface PushSenderOptions {
  broker: AskUserBroker;
  keys: VapidKeys;
  /** The VAPID `sub` claim: a `mailto:` or `https:` contact for the push services. */
  subject: string;
  subscriptions: PushSubscriptions;
  logger: Logger;
  now: () => number;
  /** One push service's answer time limit, in ms (default {@link PUSH_TIMEOUT_MS}). */
  timeoutMs?: number;
  /**
   * With subscriptions shared by several instances: true for the one instance that pushes new question
   * `id` (each instance hears every new question). Default: this gateway pushes every question.
   */
  claim?: (id: string, ttlMs: number) => Promise<boolean>;
}

/** The running sender. */
export interface PushSender {
  /**
   * Sends `payload` to every subscription now (whoever else does); resolves when every push service
   * answered (or failed).
   */
  sendToAll(payload: PushPayload, ttlSeconds: number): Promise<void>;
  /** Stops listening and waits for the pushes in flight. */
  close(): Promise<void>;
}

/**
 * Sends a Web Push to every subscription for each new pending question: encrypted (aes128gcm) and
 * signed with the gateway's VAPID key by `web-push`, posted with `fetch` (bounded by `timeoutMs`). With
 * `claim`, only the instance that claims the question sends it. A push service's 404 or 410 means the
 * subscription is gone: it is removed. Every other failure is logged; none of them touches the question.
 */
export function createPushSender(options: PushSenderOptions): PushSender {
  const { broker, keys, subject, subscriptions, logger } = options;
  const timeoutMs = options.timeoutMs ?? PUSH_TIMEOUT_MS;

  async function sendOne(subscription: PushSubscriptionRecord, payload: PushPayload, ttl: number) {
    const endpoint = new URL(subscription.endpoint);
    const where = `${endpoint.protocol}//${endpoint.host}`; // the path names the browser: not logged
    try {
      const request = webpush.generateRequestDetails(subscription, JSON.stringify(payload), {
        vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: ttl,
        urgency: "high",
        contentEncoding: "aes128gcm",
      });
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (name.toLowerCase() !== "content-length") headers[name] = String(value);
      }
      const response = await fetch(request.endpoint, {
        method: request.method,
        headers,
        body: request.body ?? null,
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text().catch(() => "");
      if (response.status === 404 || response.status === 410) {
        await subscriptions.remove(subscription.endpoint);
        logger.info({ pushService: where, status: response.status }, "push subscription gone: removed");
      } else if (!response.ok) {
        logger.warn(
          { pushService: where, status: response.status, body: text.slice(0, 200), question: payload.id },
          "push service refused the notification",
        );
      }
    } catch (error) {
      logger.warn({ pushService: where, question: payload.id, err: describeError(error) }, "push failed");
    }
  }

  /** Pushes in flight, and who waits for there to be none (`close`). */
  let busy = 0;
  const idle: (() => void)[] = [];
  const settle = () => {
    busy--;
    if (busy === 0) for (const wake of idle.splice(0)) wake();
  };

  /** Runs `work` as a push in flight (`close` waits for it): a count, not a closure per push. */
  function track(work: Promise<void>): Promise<void> {
    busy++;
    work.then(settle, settle);
    return work;
  }

  async function sendEach(list: PushSubscriptionRecord[], payload: PushPayload, ttl: number) {
    await Promise.all(list.map((s) => sendOne(s, payload, ttl)));
  }

  /** The subscriptions now, as a promise; rejects (never throws) when they can't be read. */
  function read(): Promise<PushSubscriptionRecord[]> {
    try {
      return subscriptions.list();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** What a failed read of the subscriptions does: logs it; nothing is pushed. */
  const unreadable = (question: string) => (error: unknown) => {
    logger.warn({ question, err: describeError(error) }, "could not read the push subscriptions; no push");
  };

  async function announce(record: QuestionRecord, list: PushSubscriptionRecord[]): Promise<void> {
    const left = Math.ceil((record.expiresAt - options.now()) / 1000);
    const ttl = Math.min(MAX_TTL_SECONDS, Math.max(60, left));
    if (options.claim && !(await options.claim(record.id, ttl * 1000))) return; // a sibling sends it
    await sendEach(list, pushPayloadOf(record), ttl);
  }

  const sendToAll = (payload: PushPayload, ttlSeconds: number): Promise<void> =>
    track(read().then((list) => sendEach(list, payload, ttlSeconds), unreadable(payload.id)));

  // Each new pending question: with no subscription kept here — the usual case — nothing is made at
  // all; else the subscriptions are read (one promise), and with none nothing more is made: no claim,
  // no payload, no async chain.
  const unsubscribe = broker.subscribe((event) => {
    if (event.type !== "question.requested" || event.record.status !== "pending") return;
    if (subscriptions.size === 0) return;
    const record = event.record;
    void track(
      read().then((list) => {
        if (list.length === 0) return;
        return announce(record, list).catch((error: unknown) => {
          logger.warn({ question: record.id, err: describeError(error) }, "push failed");
        });
      }, unreadable(record.id)),
    );
  });

  return {
    sendToAll,
    async close() {
      unsubscribe();
      if (busy > 0) await new Promise<void>((resolve) => idle.push(resolve));
    },
  };
}
