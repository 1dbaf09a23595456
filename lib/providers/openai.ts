/** agenttoolkit/providers/openai: the OpenAI Chat Completions and Responses formats, calls and results. */
export { openAIChatFormat, openAIChatStrictFormat, openAIChatToolCalls, openAIChatToolMessage, type OpenAIChatAssistantMessage, type OpenAIChatTool } from './openai-chat';
export {
  openAIResponsesFormat,
  openAIResponsesStrictFormat,
  openAIResponsesToolCalls,
  openAIResponsesToolOutput,
  type OpenAIResponsesOutputItem,
  type OpenAIResponsesTool,
} from './openai-responses';
export { openAIFunctionParameters, type OpenAIFunctionParameters } from './openai-parameters';
export { executeToolCall, executeToolCalls, type ToolCallOptions, type ToolCallOutcome } from './execute-tool-calls';
export type { ToolCallRequest } from './tool-call-request';
