import type { PublicQuestion } from "../api.ts";
import { type Command, connect, GATEWAY_OPTIONS, parse, single, URL_HELP } from "./command.ts";
import { reportError } from "./io.ts";
import { waitAndPrint } from "./waiting.ts";

/** `ask-user wait ID`: wait on a question asked before and print its result as `ask` does. */
export const waitCommand: Command = {
  name: "wait",
  summary: "wait on a question asked before (by ask, an agent, MCP) and print its result JSON",
  help: `Usage: ask-user wait ID [options]

Waits until question ID has ended and prints its result JSON on stdout, as "ask-user ask" does — at
once when it has already ended. Use it when ask stopped (it was killed, or the gateway stayed away too
long), or to follow a question an agent asked. While it waits, stderr shows how long is left; a gateway
restart or a dropped connection is ridden out as ask does.

Ctrl-C stops waiting and leaves the question open: it does NOT cancel it ("ask-user cancel ID" does).

Options:
${URL_HELP}
  -h, --help          show this help

Exit codes: 0 answered · 3 no answer (skipped, expired, cancelled, undeliverable) · 1 no question with
that id, or gateway error · 2 bad usage · 130 interrupted (the question stays open).`,
  async run(args, context) {
    const { values, positionals } = parse(args, GATEWAY_OPTIONS);
    const id = single(positionals, "question ID");
    const client = connect(context, values.url);
    let question: PublicQuestion;
    try {
      question = await client.get(id);
    } catch (error) {
      return reportError(context.io, error, id, client.url);
    }
    return waitAndPrint(client, question, context.io, "stop");
  },
};
