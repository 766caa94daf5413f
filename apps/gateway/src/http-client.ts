/**
 * The CLI and `ask-user mcp` talk to a running gateway through `@ask-user/client` (`connect` in
 * `cli/command.ts` makes the one client of a command); what they share about that gateway is here.
 */

/** Where the CLI and `ask-user mcp` look for a gateway when neither `--url` nor `ASK_USER_URL` is set. */
export const DEFAULT_GATEWAY_URL = "http://127.0.0.1:7310";

/** What the CLI and `ask-user mcp` tell after the message of a gateway nobody answers at. */
export const START_HINT = "Start one with `pnpm start` (or set ASK_USER_URL).";
