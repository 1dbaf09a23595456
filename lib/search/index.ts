/** agenttoolkit/search: tool search with deferred loading, local (every provider) or native (Anthropic, OpenAI Responses). */
export { ToolSearch, SEARCH_TOOLS, type ToolSearchOptions } from './tool-search';
export { ToolSearchSession, type ToolSearchFound } from './tool-search-session';
export type { ToolSearchHit, ToolSearchHost, ToolSearchQueryOptions } from './tool-search-host';
export { ToolSearchError, type ToolSearchErrorCode } from './errors';
export { anthropicToolSearchTools, anthropicToolSearchResult, type AnthropicToolSearchOptions, type AnthropicToolSearchTool, type AnthropicDeferrableTool, type AnthropicToolReferenceResult } from './anthropic-tool-search';
export {
  openAIToolSearchTools,
  openAIToolSearchCalls,
  openAIToolSearchOutput,
  type OpenAIToolSearchOptions,
  type OpenAIToolSearchTool,
  type OpenAINamespaceTool,
  type OpenAIDeferrableTool,
  type OpenAIToolSearchOutput,
} from './openai-tool-search';
