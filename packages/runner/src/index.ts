/**
 * @ask-user/runner — the standalone runner shared by the channel apps (`apps/<platform>/src/main.ts`):
 * one question through one platform alone, the result JSON on stdout, the outcome as the exit code.
 *
 * @example
 * process.exitCode = await runStandalone({ argv, env, platform: "telegram", usage, validTarget, start });
 */
export {
  EXIT,
  isMain,
  processIo,
  runStandalone,
  type StandaloneIo,
  type StandaloneMain,
  type StandaloneOptions,
  type StartContext,
  type StartedChannel,
} from "./runner.ts";
