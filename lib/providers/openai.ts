/** agenttoolkit/providers/openai: the OpenAI Chat Completions and Responses formats, calls and results. */
export {
  openAIChatFormat,
  openAIChatStrictFormat,
  openAIChatToolCalls,
  openAIChatToolMessage,
  openAIChatToolMessages,
  type OpenAIChatAssistantMessage,
  type OpenAIChatAttachmentPart,
  type OpenAIChatTool,
  type OpenAIChatToolMessage,
} from './openai-chat';
export {
  openAIResponsesFormat,
  openAIResponsesStrictFormat,
  openAIResponsesToolCalls,
  openAIResponsesToolOutput,
  type OpenAIResponsesOutputContent,
  type OpenAIResponsesOutputItem,
  type OpenAIResponsesTool,
} from './openai-responses';
export { openAIFunctionParameters, type OpenAIFunctionParameters } from './openai-parameters';
