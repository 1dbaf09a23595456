/**
 * agenttoolkit/ai-sdk: a registry's tools as a Vercel AI SDK 7 tool set (`generateText`, `streamText`, agents).
 * Needs the optional peer dependency `ai` (7.x, Node 22 or later); nothing else in the library loads it.
 */
export { aiSdkTools, type AiSdkContentPart, type AiSdkTool, type AiSdkToolOutput, type AiSdkToolSet, type AiSdkToolsOptions } from './ai-sdk-tools';
