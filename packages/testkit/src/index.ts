/**
 * @ask-user/testkit: local fake platform servers that the real SDKs talk to in tests.
 *
 * @example
 * ```ts
 * import { createFakeTelegram } from "@ask-user/testkit";
 * const tg = await createFakeTelegram();
 * ```
 */
export * from "./telegram/index.ts";
