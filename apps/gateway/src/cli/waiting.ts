import { type AskUserClient, GatewayUnavailableError, type RetryEvent } from "@ask-user/client";
import { type AskUserResult, formatTime } from "@ask-user/core";
import type { PublicQuestion } from "../api.ts";
import { paint } from "./color.ts";
import { formatDuration, headline, secondsLeft, whereToAnswer } from "./format.ts";
import { cliCommand } from "./invocation.ts";
import { type CliIo, EXIT, reportError, writeLine } from "./io.ts";

/**
 * How long past a question's deadline `ask` and `wait` keep trying to reach a gateway that is gone:
 * the gateway expires the question at its deadline (at once when it comes back later), so the result
 * is known soon after; a gateway that stays away longer is given up on.
 */
export const DEADLINE_GRACE_MS = 60_000;

/** Pauses between attempts to reach a gateway that is gone: 1 s, doubling up to 5 s. */
const RETRY = { initialDelayMs: 1000, maxDelayMs: 5000, maxOutageMs: Number.POSITIVE_INFINITY } as const;

/** What the first Ctrl-C does: `ask` cancels its question, `wait` only stops waiting. */
export type InterruptMode = "cancel" | "stop";

/**
 * Waits until `question` ends and prints its result JSON on stdout; returns the exit code (0 answered,
 * 3 no answer, 1 gateway error, 130 Ctrl-C). While it waits, stderr says where to answer and — on a
 * terminal — counts down; a gateway restart or a dropped connection prints one line when it starts
 * ("gateway unreachable, retrying in 1 s…") and one when it is over ("reconnected"), and the wait goes
 * on until the question ends or its deadline has passed by a minute. A question that has already ended
 * is printed at once.
 */
export async function waitAndPrint(
  client: AskUserClient,
  question: PublicQuestion,
  io: CliIo,
  mode: InterruptMode,
): Promise<number> {
  if (question.result) return printResult(io, question.result);
  const command = cliCommand(io.env, client.url);
  const controller = new AbortController();
  let interrupts = 0;
  let forceStop: () => void = () => {};
  const forced = new Promise<"forced">((resolve) => {
    forceStop = () => resolve("forced");
  });
  const removeInterrupt = io.onInterrupt?.(() => {
    interrupts += 1;
    if (interrupts === 1) controller.abort();
    else forceStop();
  });
  const display = showWaiting(question, io, client.url);
  const waiting = waitForEnd(client, question, controller.signal, display.note, mode);
  waiting.catch(() => {}); // A second Ctrl-C stops waiting for it; its failure is then of no interest.
  let outcome: AskUserResult | "stopped" | "forced";
  try {
    outcome = await Promise.race([waiting, forced]);
  } catch (error) {
    display.stop();
    const code = reportError(io, error, undefined, client.url);
    if (error instanceof GatewayUnavailableError) {
      writeLine(
        io.stderr,
        `Question ${question.id} may still be answered: "${command} wait ${question.id}" waits on it again.`,
      );
    }
    return code;
  } finally {
    removeInterrupt?.();
  }
  display.stop();
  if (outcome === "forced") {
    writeLine(io.stderr, `Stopped without waiting for question ${question.id} to be cancelled.`);
    return EXIT.interrupted;
  }
  if (outcome === "stopped") {
    writeLine(
      io.stderr,
      `Stopped waiting; question ${question.id} stays open (Ctrl-C on wait does not cancel it: ` +
        `"${command} cancel ${question.id}" does).`,
    );
    return EXIT.interrupted;
  }
  const code = printResult(io, outcome);
  if (interrupts === 0) return code;
  const cancelled = outcome.status === "no_answer" && outcome.reason === "cancelled";
  const ended = outcome.status === "answered" ? "answered" : outcome.reason;
  writeLine(
    io.stderr,
    cancelled
      ? `✖ Cancelled question ${question.id}.`
      : `Interrupted; question ${question.id} had already ended (${ended}).`,
  );
  return EXIT.interrupted;
}

/** Prints a result as `ask` does; 0 when answered, else 3. */
function printResult(io: CliIo, result: AskUserResult): number {
  writeLine(io.stdout, JSON.stringify(result, null, 2));
  return result.status === "answered" ? EXIT.ok : EXIT.noAnswer;
}

/**
 * The resuming wait; after an abort, `cancel` cancels the question (or takes the result it already
 * had) and `stop` resolves with "stopped".
 */
async function waitForEnd(
  client: AskUserClient,
  question: PublicQuestion,
  signal: AbortSignal,
  note: (line: string) => void,
  mode: InterruptMode,
): Promise<AskUserResult | "stopped"> {
  try {
    const ended = await client.wait(question.id, {
      signal,
      retry: { ...RETRY, giveUpAt: question.expiresAt + DEADLINE_GRACE_MS },
      onRetry: (event) => {
        if (event.attempt === 1) note(unreachableLine(event));
      },
      onReconnect: ({ outageMs }) => note(`reconnected to the gateway after ${seconds(outageMs)} s`),
    });
    return ended.result ?? { status: "no_answer", reason: "cancelled" };
  } catch (error) {
    if (!signal.aborted) throw error;
    if (mode === "stop") return "stopped";
    const ended = await client.cancel(question.id, { ifPending: true });
    return ended.result ?? { status: "no_answer", reason: "cancelled" };
  }
}

/** `gateway unreachable (connection lost), retrying in 1 s…` */
function unreachableLine({ error, delayMs }: RetryEvent): string {
  const why =
    error.reason === "unreachable"
      ? "nothing answers"
      : error.reason === "network"
        ? "connection lost"
        : error.reason === "timeout"
          ? "no answer in time"
          : `HTTP ${error.status}`;
  return `gateway unreachable (${why}), retrying in ${seconds(delayMs)} s…`;
}

function seconds(ms: number): number {
  return Math.max(1, Math.round(ms / 1000));
}

/**
 * Tells the person that the command waits and where to answer (the chat, the web panel, the terminal)
 * — on a terminal, above a countdown line updated each second; otherwise as one line. `note` prints a
 * line above the countdown; `stop` clears it.
 */
function showWaiting(
  question: PublicQuestion,
  io: CliIo,
  panelUrl: string,
): { note: (line: string) => void; stop: () => void } {
  if (!io.isTTY) {
    writeLine(
      io.stderr,
      `Waiting for an answer to "${headline(question)}" until ${formatTime(question.expiresAt, "en", Date.now())} ` +
        `(question ${question.id}). ${whereToAnswer(question, panelUrl, cliCommand(io.env, panelUrl))}`,
    );
    return { note: (line) => writeLine(io.stderr, line), stop: () => {} };
  }
  const p = paint(io.color?.stderr === true);
  writeLine(io.stderr, p.dim(whereToAnswer(question, panelUrl, cliCommand(io.env, panelUrl))));
  const render = () => {
    const left = p.bold(`${formatDuration(secondsLeft(question))} left`);
    io.stderr.write(
      `\r\x1b[2K⏳ Waiting for an answer to "${headline(question)}" — ${left} (question ${question.id})`,
    );
  };
  render();
  const timer = setInterval(render, 1000);
  let stopped = false;
  return {
    note(line) {
      if (stopped) return;
      io.stderr.write(`\r\x1b[2K${p.dim(line)}\n`);
      render();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      io.stderr.write("\r\x1b[2K");
    },
  };
}
