import type { McpSdkServerConfigWithInstance } from "@anthropic-ai/claude-agent-sdk";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach } from "vitest";

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/**
 * An MCP client connected to an in-process SDK server, as the Claude Agent SDK connects the CLI to
 * it: the calls, cancellations and results go through the server's real MCP protocol handling.
 */
export async function connect(server: McpSdkServerConfigWithInstance): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.instance.connect(serverSide);
  const client = new Client({ name: "claude-code", version: "test" });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}
