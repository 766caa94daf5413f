import type { GatewayConfig } from "./config.ts";
import type { McpTransportSecurity } from "./mcp/http.ts";

/** The names a token-less gateway answers to: loopback, its bind address, and ASK_USER_ALLOWED_HOSTS. */
export function ownHostNames(config: GatewayConfig): ReadonlySet<string> {
  const names = new Set(["127.0.0.1", "localhost", "[::1]", ...config.allowedHosts]);
  names.add(config.host.includes(":") && !config.host.startsWith("[") ? `[${config.host}]` : config.host);
  return names;
}

/**
 * The MCP SDK transport's exact Host values and Origins for a token-less gateway on `port`: its own
 * names with and without the port (a reverse proxy named in ASK_USER_ALLOWED_HOSTS may drop it).
 */
export function mcpTransportSecurity(names: ReadonlySet<string>, port: number): McpTransportSecurity {
  const hosts = [...names].flatMap((name) => [name, `${name}:${port}`]);
  const origins = hosts.flatMap((host) => [`http://${host}`, `https://${host}`]);
  return { allowedHosts: hosts, allowedOrigins: origins };
}
