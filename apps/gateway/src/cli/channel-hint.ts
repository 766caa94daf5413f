import { GatewayError } from "@ask-user/client";
import type { ChannelPlugin } from "@ask-user/core";
import { loadChannelPlugins, turnedOnBy } from "../channels.ts";

/**
 * The fix for a `--target` whose channel the gateway does not run (its refusal names the running ones):
 * the variables that turn that channel on, or the channels there are when no channel has that name.
 */
export function channelHint(channel: string, plugins: readonly ChannelPlugin[]): string {
  const plugin = plugins.find((candidate) => candidate.name === channel);
  if (plugin)
    return `To turn ${channel} on, set ${turnedOnBy(plugin)} where the gateway runs and restart it.`;
  const names = plugins.map((candidate) => candidate.name).join(", ");
  return `There is no channel named "${channel}"; the channels are: ${names}.`;
}

/** `channelHint` for a refused `target.channel`, else undefined (the plugins are loaded only then). */
export async function refusedChannelHint(
  error: unknown,
  channel: string | undefined,
): Promise<string | undefined> {
  if (channel === undefined || !(error instanceof GatewayError)) return undefined;
  if (!error.issues?.some((issue) => issue.path === "target.channel")) return undefined;
  try {
    return channelHint(channel, await loadChannelPlugins());
  } catch {
    return undefined; // a plugin that cannot load: the gateway's own message stands alone
  }
}
