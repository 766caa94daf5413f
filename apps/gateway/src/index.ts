/**
 * @ask-user/gateway — the server people run: durable SQLite store, HTTP API with SSE, MCP server
 * (stdio and Streamable HTTP), the `ask-user` CLI, and every channel whose variables are set.
 */
export type { AnswerBody, ApiErrorBody, CreateQuestionBody, PublicQuestion, QuestionList } from "./api.ts";
export { parseTarget } from "./api.ts";
export type { QuestionBackend } from "./backend.ts";
export { CHANNEL_MODULES, type EnabledChannel, loadChannelPlugins, readChannelConfigs } from "./channels.ts";
export { ConfigError, type GatewayConfig, loadConfig, readGatewayConfig } from "./config.ts";
export { type RunningGateway, type StartOptions, startGateway } from "./gateway.ts";
export { DEFAULT_GATEWAY_URL } from "./http-client.ts";
