/**
 * @ask-user/agents — `ask_user` as a native tool for agent frameworks, one subpath each:
 * `@ask-user/agents/ai` (Vercel AI SDK), `/openai-agents`, `/langchain`, `/claude-agent-sdk`. This
 * entry has what they share: the backend interface and the text a model reads.
 */
export { type AskUserBackend, type AskUserToolOptions, askThrough } from "./backend.ts";
export { askUserErrorText, askUserResultText } from "./result-text.ts";
