/**
 * Slack's HTTP mode as one web handler: a Bolt `Receiver` that opens no port and does what Bolt's
 * `HTTPReceiver` does (README "HTTP mode") with Bolt's own pieces. Those speak `node:http`; here they get
 * the buffered request, and a response sink that turns what they write into the web `Response`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type App,
  type BufferedIncomingMessage,
  HTTPResponseAck,
  HTTPModuleFunctions as Http,
  type Receiver,
  type ReceiverEvent,
} from "@slack/bolt";

/** A web-standard request handler, as the gateway mounts it. */
export type WebhookHandler = (request: Request) => Promise<Response>;

export interface WebhookReceiverOptions {
  /** The app's Signing Secret: `SLACK_SIGNING_SECRET`. */
  signingSecret: string;
}

/** A Bolt receiver without a port of its own: give it to `new App({ receiver })`, mount `handle`. */
export interface WebhookReceiver extends Receiver {
  handle: WebhookHandler;
}

/** What Bolt's response builders write (status, headers, one body), as a web `Response`. */
function responseSink() {
  let done: (response: Response) => void = () => undefined;
  const response = new Promise<Response>((resolve) => {
    done = resolve;
  });
  let init: ResponseInit = { status: 200, headers: {} };
  const sink = {
    headersSent: false,
    writeHead(status: number, headers: Record<string, string> = {}) {
      init = { status, headers };
      sink.headersSent = true;
      return sink;
    },
    end(body?: string | Uint8Array) {
      sink.headersSent = true;
      done(new Response(body === undefined || body === "" ? null : body, init));
      return sink;
    },
  };
  return { res: sink as unknown as ServerResponse, response };
}

/** The request as Bolt's `node:http` helpers read it: method, url, lower-case headers, the raw body. */
async function buffered(request: Request): Promise<BufferedIncomingMessage> {
  const url = new URL(request.url);
  const headers = Object.fromEntries(request.headers);
  const rawBody = Buffer.from(await request.arrayBuffer());
  const message = { method: request.method, url: `${url.pathname}${url.search}`, headers, rawBody };
  return message as unknown as BufferedIncomingMessage;
}

/** Creates the receiver. `start()` and `stop()` open and close nothing: the host serves `handle`. */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  const { signingSecret } = options;
  let app: App | undefined;

  const handle: WebhookHandler = async (request) => {
    if (request.method !== "POST") return new Response(null, { status: 405, headers: { allow: "POST" } });
    const bolt = app;
    if (!bolt) throw new Error("the Slack receiver is not attached to an app: new App({ receiver })");
    const { logger } = bolt;
    const { res, response } = responseSink();
    let req: BufferedIncomingMessage;
    // biome-ignore lint/suspicious/noExplicitAny: Bolt's parsed bodies are any
    let body: any;
    try {
      req = await Http.parseAndVerifyHTTPRequest({ signingSecret, enabled: true }, await buffered(request));
    } catch (error) {
      logger.warn(`Failed to parse and verify the request data: ${(error as Error).message}`);
      return new Response(null, { status: 401 });
    }
    try {
      body = Http.parseHTTPRequestBody(req);
    } catch (error) {
      logger.warn(`Malformed request body: ${(error as Error).message}`);
      return new Response(null, { status: 400 });
    }
    if (body.ssl_check === "1") Http.buildSSLCheckResponse(res);
    else if (body.type === "url_verification") Http.buildUrlVerificationResponse(res, body);
    else {
      const ack = new HTTPResponseAck({
        logger,
        processBeforeResponse: false,
        httpRequest: req as IncomingMessage,
        httpRequestBody: body,
        httpResponse: res,
      });
      const event: ReceiverEvent = { body, ack: ack.bind(), customProperties: {} };
      const retryNum = Http.extractRetryNumFromHTTPRequest(req);
      const retryReason = Http.extractRetryReasonFromHTTPRequest(req);
      if (retryNum !== undefined) event.retryNum = retryNum;
      if (retryReason !== undefined) event.retryReason = retryReason;
      // The listeners go on after the ack: the response leaves as soon as one acks.
      void bolt.processEvent(event).catch(async (error: Error) => {
        const failed = { error, logger, request: req, response: res, storedResponse: undefined };
        await Http.defaultProcessEventErrorHandler(failed);
        ack.ack(); // answered (500 or 401) or acked already: no "not acknowledged" 3 s later
      });
    }
    return response;
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
