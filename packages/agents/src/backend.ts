import type { AskUserInput, AskUserResult, Target, UserRef } from "@ask-user/core";

/**
 * Where an adapter's questions go — anything with core's `ask`: the broker of `createAskUser` (in
 * process, with your channels) or the client of `createAskUserClient` (a running gateway). Aborting
 * `signal` must cancel the question and resolve with `{ status: "no_answer", reason: "cancelled" }`.
 */
export interface AskUserBackend {
  ask(
    input: AskUserInput,
    options: { target?: Target; creator?: UserRef; runId?: string; signal?: AbortSignal },
  ): Promise<AskUserResult>;
}

/** What every adapter's `createAskUserTool` takes. */
export interface AskUserToolOptions {
  /** A core broker (`createAskUser`) or a gateway client (`createAskUserClient`). */
  backend: AskUserBackend;
  /** Where to ask; without it, the gateway's default target (a broker needs one to reach a chat). */
  target?: Target;
  /** The user whose request started the run: by default only they may answer in a chat. */
  creator?: UserRef;
  /** Groups this run's questions. */
  runId?: string;
}

/** Asks through the backend with the tool's target, creator and run, passing the framework's signal. */
export function askThrough(
  options: AskUserToolOptions,
  input: AskUserInput,
  signal: AbortSignal | undefined,
): Promise<AskUserResult> {
  const askOptions: { target?: Target; creator?: UserRef; runId?: string; signal?: AbortSignal } = {};
  if (options.target !== undefined) askOptions.target = options.target;
  if (options.creator !== undefined) askOptions.creator = options.creator;
  if (options.runId !== undefined) askOptions.runId = options.runId;
  if (signal !== undefined) askOptions.signal = signal;
  return options.backend.ask(input, askOptions);
}
