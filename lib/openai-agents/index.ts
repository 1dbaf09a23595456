/**
 * agenttoolkit/openai-agents: a registry's tools as OpenAI Agents SDK function tools (`@openai/agents` 0.20).
 * Needs the optional peer dependency `@openai/agents-core` (installed with `@openai/agents`); nothing else in the
 * library loads it.
 */
export { openAIAgentsTools, type OpenAIAgentsOutputPart, type OpenAIAgentsToolOutput, type OpenAIAgentsToolsOptions } from './openai-agents-tools';
