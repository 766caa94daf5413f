/**
 * Slack's HTTP mode as one web-standard handler, `(Request) => Promise<Response>`: a Bolt `Receiver`
 * whose `start()` opens no port. The plugin's `handleWebhook` is this handler: the gateway mounts it at
 * `/channels/slack/…` on its one port; the standalone runner serves it on the plugin's `listen`.
 *
 * It does what Bolt's `HTTPReceiver` does for `/slack/events`, with Bolt's own pieces: the signature and
 * timestamp are checked by `HTTPModuleFunctions.parseAndVerifyHTTPRequest` (Bolt's `verifySlackRequest`:
 * a bad signature or a timestamp over 5 minutes old → 401), the body is parsed by `parseHTTPRequestBody`
 * (interactivity is `payload=<json>` sent as exactly `application/x-www-form-urlencoded`), `ssl_check`
 * and `url_verification` are answered, and `ack()` is Bolt's `HTTPResponseAck` — the response goes out
 * the moment a listener acks (within 3 s, or Bolt answers 404), while the listeners go on running.
 * Those pieces speak `node:http`; here they get the request's buffered body and headers, and a response
 * sink that turns what they write into the web `Response`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type App,
  type BufferedIncomingMessage,
  HTTPModuleFunctions,
  HTTPResponseAck,
  type Logger,
  type Receiver,
  type ReceiverEvent,
} from "@slack/bolt";

/** A web-standard request handler, as the gateway mounts it. */
export type WebhookHandler = (request: Request) => Promise<Response>;

/** Options of {@link createWebhookReceiver}. */
export interface WebhookReceiverOptions {
  /** The app's Signing Secret (Basic Information in the app's settings): `SLACK_SIGNING_SECRET`. */
  signingSecret: string;
  /** Bolt's logger. Default: the app's (`app.logger`). */
  logger?: Logger;
  /** How long a request may wait for `ack()` before it is answered 404 (Bolt's default: 3001 ms). */
  unhandledRequestTimeoutMillis?: number;
}

/** A Bolt receiver without a port of its own: give it to `new App({ receiver })`, mount `handle`. */
export interface WebhookReceiver extends Receiver {
  /** Serves Slack's Events API and interactivity requests (one URL for both, like `/slack/events`). */
  handle: WebhookHandler;
}

/** What Bolt's response builders write: status, headers, one body. */
class ResponseSink {
  headersSent = false;
  private status = 200;
  private headers: Record<string, string> = {};
  private resolve: (response: Response) => void = () => undefined;
  readonly response = new Promise<Response>((resolve) => {
    this.resolve = resolve;
  });

  writeHead(status: number, headers: Record<string, string> = {}): this {
    this.status = status;
    this.headers = headers;
    this.headersSent = true;
    return this;
  }

  end(body?: string | Uint8Array): this {
    this.headersSent = true;
    this.resolve(new Response(body === undefined || body === "" ? null : body, this.sent()));
    return this;
  }

  private sent(): ResponseInit {
    return { status: this.status, headers: this.headers };
  }
}

/** The request as Bolt's `node:http` helpers read it: method, url, lower-case headers, the raw body. */
async function buffered(request: Request): Promise<BufferedIncomingMessage> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const url = new URL(request.url);
  const rawBody = Buffer.from(await request.arrayBuffer());
  const message = { method: request.method, url: `${url.pathname}${url.search}`, headers, rawBody };
  return message as unknown as BufferedIncomingMessage;
}

/**
 * Creates the receiver. `start()` and `stop()` open and close nothing: the host serves `handle`.
 *
 * @example
 * const receiver = createWebhookReceiver({ signingSecret: process.env.SLACK_SIGNING_SECRET, logger });
 * const app = new App({ token: process.env.SLACK_BOT_TOKEN, receiver });
 * await app.start(); // no port: mount receiver.handle, e.g. at https://gw.example.com/channels/slack/events
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  const { signingSecret } = options;
  let app: App | undefined;

  const handle: WebhookHandler = async (request) => {
    if (request.method !== "POST") return new Response(null, { status: 405, headers: { allow: "POST" } });
    if (!app) throw new Error("the Slack receiver is not attached to an app: new App({ receiver })");
    const bolt = app;
    const logger = options.logger ?? bolt.logger;
    const sink = new ResponseSink();
    const res = sink as unknown as ServerResponse;
    let req: BufferedIncomingMessage;
    try {
      req = await HTTPModuleFunctions.parseAndVerifyHTTPRequest(
        { signingSecret, enabled: true },
        await buffered(request),
      );
    } catch (error) {
      logger.warn(`Failed to parse and verify the request data: ${(error as Error).message}`);
      return new Response(null, { status: 401 });
    }
    // biome-ignore lint/suspicious/noExplicitAny: Bolt's parsed bodies are any
    let body: any;
    try {
      body = HTTPModuleFunctions.parseHTTPRequestBody(req);
    } catch (error) {
      logger.warn(`Malformed request body: ${(error as Error).message}`);
      return new Response(null, { status: 400 });
    }
    if (body.ssl_check === "1") {
      HTTPModuleFunctions.buildSSLCheckResponse(res);
      return sink.response;
    }
    if (body.type === "url_verification") {
      HTTPModuleFunctions.buildUrlVerificationResponse(res, body);
      return sink.response;
    }
    const ack = new HTTPResponseAck({
      logger,
      processBeforeResponse: false,
      ...(options.unhandledRequestTimeoutMillis === undefined
        ? {}
        : { unhandledRequestTimeoutMillis: options.unhandledRequestTimeoutMillis }),
      httpRequest: req as IncomingMessage,
      httpRequestBody: body,
      httpResponse: res,
    });
    const event: ReceiverEvent = {
      body,
      ack: ack.bind(),
      customProperties: {},
    };
    const retryNum = HTTPModuleFunctions.extractRetryNumFromHTTPRequest(req);
    const retryReason = HTTPModuleFunctions.extractRetryReasonFromHTTPRequest(req);
    if (retryNum !== undefined) event.retryNum = retryNum;
    if (retryReason !== undefined) event.retryReason = retryReason;
    // The listeners go on after the ack: the response is sent as soon as one acks.
    const processing = async () => {
      try {
        await bolt.processEvent(event);
      } catch (error) {
        await HTTPModuleFunctions.defaultProcessEventErrorHandler({
          error: error as Error,
          logger,
          request: req,
          response: res,
          storedResponse: undefined,
        });
        ack.ack(); // answered (500 or 401) or acked already: no "not acknowledged" 3 s later
      }
    };
    void processing();
    return sink.response;
  };

  return {
    handle,
    init(bolt) {
      app = bolt;
    },
    start: async () => handle,
    stop: async () => undefined,
  };
}
