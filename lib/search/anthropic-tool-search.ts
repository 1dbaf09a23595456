import type { ToolContext } from '../context/tool-context';
import { anthropicFormat, type AnthropicTool } from '../providers/anthropic';
import { anthropicToolResult, type AnthropicToolResult } from '../providers/anthropic-result';
import { providerIdOf, type ToolCallRequest } from '../providers/tool-call-request';
import type { ActionResult } from '../result';
import { requireSession, splitListing } from './provider-listing';
import type { ToolSearch } from './tool-search';
import type { ToolSearchFound, ToolSearchSession } from './tool-search-session';

/**
 * Anthropic's server tool search tools (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool):
 * the SDK's `ToolSearchToolBm25_20251119` and `ToolSearchToolRegex20251119`.
 */
export type AnthropicToolSearchTool = { type: 'tool_search_tool_bm25_20251119'; name: 'tool_search_tool_bm25' } | { type: 'tool_search_tool_regex_20251119'; name: 'tool_search_tool_regex' };

/** A Messages API tool entry that may be deferred (`defer_loading: true`: loaded only when a search returns it). */
export type AnthropicDeferrableTool = AnthropicTool & { defer_loading?: boolean };

/** Options of {@link anthropicToolSearchTools}. */
export interface AnthropicToolSearchOptions {
  /**
   * Who searches. `'bm25'` or `'regex'`: Anthropic's server tool search of that kind (the model writes natural
   * language or a regular expression; Anthropic picks the tools). `'client'`: this library's `search_tools`, run by
   * `tools.execute(..., { session })`, whose result goes back as `tool_reference` blocks
   * ({@link anthropicToolSearchResult}); needs `session`. Default `'bm25'`.
   */
  readonly mode?: 'bm25' | 'regex' | 'client' | undefined;
  /** The conversation's session (needed for `'client'`, which lists its `search_tools` tool). */
  readonly session?: ToolSearchSession | undefined;
  /** The context to list tools for (default: the registry's active context). */
  readonly context?: ToolContext | undefined;
}

/**
 * The `tools` array of a Messages request with native tool search: the always-listed tools, then the search tool
 * (Anthropic's, or this library's `search_tools` for `mode: 'client'`), then every deferred tool the model may use
 * with `defer_loading: true`, in registration order. Deferred tools are sent in full and loaded by the API only when
 * a search returns them, so the array stays the same from turn to turn and a prompt cache over it stays valid.
 * Tools that a tool-wide deny rule names, unavailable tools and tools of inactive groups are left out.
 *
 * @throws ToolSearchError `INVALID_TOOL_SEARCH_OPTION` for `mode: 'client'` without a session.
 */
export function anthropicToolSearchTools(search: ToolSearch, options: AnthropicToolSearchOptions = {}): Array<AnthropicDeferrableTool | AnthropicToolSearchTool> {
  const mode = options.mode ?? 'bm25';
  const { always, deferred } = splitListing(search, anthropicFormat, options.context);
  let searchEntry: AnthropicDeferrableTool | AnthropicToolSearchTool;
  if (mode === 'client') {
    const session = requireSession(options.session, 'anthropicToolSearchTools');
    searchEntry = anthropicFormat.render(session.searchTool, session.searchTool.resolveDescription(options.context));
  } else {
    searchEntry = mode === 'regex' ? { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' } : { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };
  }
  return [...always.map(({ entry }) => entry), searchEntry, ...deferred.map(({ entry }): AnthropicDeferrableTool => ({ ...entry, defer_loading: true }))];
}

/** A `tool_result` that loads tools: one `tool_reference` block per tool found (the SDK's `ToolReferenceBlockParam`). */
export interface AnthropicToolReferenceResult {
  type: 'tool_result';
  tool_use_id: string;
  content: Array<{ type: 'tool_reference'; tool_name: string }>;
}

/**
 * The `tool_result` for a call of `search_tools` in `mode: 'client'`: the tools found as `tool_reference` blocks, which
 * make the API load those deferred tools' definitions
 * (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool, custom tool search). A failed
 * search, or one that found nothing, is answered as any other result (its text). `call` is the call from
 * `anthropicToolUses` (Anthropic's `tool_use` id is sent back) or the `tool_use` id itself.
 */
export function anthropicToolSearchResult(call: string | ToolCallRequest, result: ActionResult<unknown>): AnthropicToolReferenceResult | AnthropicToolResult {
  const toolUseId = providerIdOf(call);
  const found = result.ok ? (result.result as ToolSearchFound | undefined) : undefined;
  if (found === undefined || !Array.isArray(found.tools) || found.tools.length === 0) return anthropicToolResult(toolUseId, result);
  return { type: 'tool_result', tool_use_id: toolUseId, content: found.tools.map((tool) => ({ type: 'tool_reference', tool_name: tool.name })) };
}
