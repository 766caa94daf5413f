import { DEFAULT_GATEWAY_URL } from "../http-client.ts";

/**
 * Set by the repository's `pnpm ask` / `pnpm ask-user` scripts (scripts/run-cli.mjs): the command was
 * started through pnpm inside the repository, where `ask-user` alone is not on the PATH.
 */
export const VIA_PNPM_ENV = "ASK_USER_VIA_PNPM";

/**
 * The command a hint tells the person to run, so that it runs as printed: `pnpm ask-user` when this
 * process was started by the repository's script (the bare `ask-user` is not on the PATH there), else
 * `ask-user`; with `--url URL` when the gateway is not the default one.
 *
 * @example
 * cliCommand({ ASK_USER_VIA_PNPM: "1" }, "http://127.0.0.1:7311") // "pnpm ask-user --url http://127.0.0.1:7311"
 */
export function cliCommand(env: Record<string, string | undefined>, url?: string): string {
  const base = env[VIA_PNPM_ENV] === "1" ? "pnpm ask-user" : "ask-user";
  const normalized = url?.replace(/\/+$/, "");
  return normalized && normalized !== DEFAULT_GATEWAY_URL ? `${base} --url ${normalized}` : base;
}
