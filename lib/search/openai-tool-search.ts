import type { ToolContext } from '../context/tool-context';
import { openAIResponsesFormat, openAIResponsesStrictFormat, type OpenAIResponsesOutputItem, type OpenAIResponsesTool } from '../providers/openai-responses';
import { withUniqueIds } from '../providers/call-ids';
import { providerIdOf, type ToolCallRequest } from '../providers/tool-call-request';
import type { ActionResult } from '../result';
import type { Tool } from '../tool/tool';
import { cutText } from '../text/cut-text';
import { requireSession, splitListing } from './provider-listing';
import type { ToolSearch } from './tool-search';
import type { ToolSearchFound, ToolSearchSession } from './tool-search-session';

/** A Responses function entry that may be deferred (`defer_loading: true`: loaded only when a tool search returns it). */
export type OpenAIDeferrableTool = OpenAIResponsesTool & { defer_loading?: boolean };

/** A Responses namespace: tools grouped under a name and a description (the SDK's `NamespaceTool`). */
export interface OpenAINamespaceTool {
  type: 'namespace';
  name: string;
  description: string;
  tools: OpenAIDeferrableTool[];
}

/** The Responses tool search tool (the SDK's `ToolSearchTool`): run by OpenAI (`server`) or by the host (`client`). */
export interface OpenAIToolSearchTool {
  type: 'tool_search';
  execution?: 'server' | 'client';
  description?: string;
  parameters?: Record<string, unknown>;
}

/** Options of {@link openAIToolSearchTools}. */
export interface OpenAIToolSearchOptions {
  /**
   * Who searches: `'server'` (OpenAI's hosted tool search over the deferred tools) or `'client'` (the model's
   * `tool_search_call` items are run with this library's search, {@link openAIToolSearchCalls} and
   * {@link openAIToolSearchOutput}; needs `session`). Default `'server'`.
   */
  readonly execution?: 'server' | 'client' | undefined;
  /** The conversation's session (needed for `'client'`). */
  readonly session?: ToolSearchSession | undefined;
  /** Strict function schemas (`openAIResponsesStrictFormat`). Default false. */
  readonly strict?: boolean | undefined;
  /**
   * The description of each group's namespace, by group name. Default: a group's `createGroup` description, or a
   * line naming its first tools.
   */
  readonly namespaces?: Readonly<Record<string, string>> | undefined;
  /** The context to list tools for (default: the registry's active context). */
  readonly context?: ToolContext | undefined;
}

const NAMESPACE_NAME = /[^a-zA-Z0-9_-]/g;

/**
 * The `tools` array of a Responses request with tool search
 * (https://developers.openai.com/api/docs/guides/tools-tool-search): the always-listed tools as plain functions, then
 * one namespace per tool group holding that group's deferred tools (`defer_loading: true` on each function, as the
 * guide says for namespaces), then the `tool_search` tool. The model sees the namespaces' names and descriptions and
 * loads the functions it searches for; loaded tools are injected at the end of the context, so the array stays the
 * same from turn to turn. Tools that a tool-wide deny rule names, unavailable tools and tools of inactive groups are
 * left out.
 *
 * @throws ToolSearchError `INVALID_TOOL_SEARCH_OPTION` for `execution: 'client'` without a session.
 */
export function openAIToolSearchTools(search: ToolSearch, options: OpenAIToolSearchOptions = {}): Array<OpenAIDeferrableTool | OpenAINamespaceTool | OpenAIToolSearchTool> {
  const { always, deferred } = splitListing(search, options.strict === true ? openAIResponsesStrictFormat : openAIResponsesFormat, options.context);
  const groups = new Map<string, Array<{ tool: Tool; entry: OpenAIResponsesTool }>>();
  for (const item of deferred) {
    const list = groups.get(item.tool.group);
    if (list === undefined) groups.set(item.tool.group, [item]);
    else list.push(item);
  }
  const created = new Map(search.tools.listGroups().map((group) => [group.name, group.description]));
  const namespaces = [...groups].map(([group, items]): OpenAINamespaceTool => ({
    type: 'namespace',
    name: group.replace(NAMESPACE_NAME, '_').slice(0, 64),
    description: options.namespaces?.[group] ?? created.get(group) ?? cutText(`Tools of ${group}: ${items.map(({ tool }) => tool.name).join(', ')}.`, 300),
    tools: items.map(({ entry }) => ({ ...entry, defer_loading: true })),
  }));
  let searchTool: OpenAIToolSearchTool = { type: 'tool_search' };
  if (options.execution === 'client') {
    const tool = requireSession(options.session, 'openAIToolSearchTools').searchTool;
    searchTool = { type: 'tool_search', execution: 'client', description: tool.resolveDescription(options.context), parameters: tool.parameters as Record<string, unknown> };
  }
  return [...always.map(({ entry }) => entry), ...namespaces, searchTool];
}

interface ToolSearchCallItem {
  readonly type: 'tool_search_call';
  readonly call_id?: string | null;
  readonly execution?: string;
  readonly arguments?: unknown;
}

/**
 * The client-executed `tool_search_call` items of a response, as calls of the session's `search_tools` (`name` is
 * `search.toolName`; run them with `tools.execute(call.name, call.args, { session })`). Server-executed ones are
 * left out: OpenAI answered them itself. A call with no `call_id` or one an earlier call has gets a made-up `id` (see
 * `ToolCallRequest.providerId`); pass the call to {@link openAIToolSearchOutput} to answer with OpenAI's.
 */
export function openAIToolSearchCalls(search: ToolSearch, response: { readonly output: ReadonlyArray<OpenAIResponsesOutputItem> } | ReadonlyArray<OpenAIResponsesOutputItem>): ToolCallRequest[] {
  const items = response !== null && typeof response === 'object' && 'output' in response ? response.output : response;
  const calls = (Array.isArray(items) ? items : []).flatMap((item: OpenAIResponsesOutputItem | null) => {
    if (item?.type !== 'tool_search_call') return [];
    const call = item as ToolSearchCallItem;
    if (call.execution === 'server') return [];
    return [{ id: String(call.call_id ?? ''), name: search.toolName, args: call.arguments }];
  });
  return withUniqueIds(calls, 'openai');
}

/** The input item answering a client-executed tool search (the SDK's `ResponseToolSearchOutputItemParam`). */
export interface OpenAIToolSearchOutput {
  type: 'tool_search_output';
  call_id: string;
  execution: 'client';
  status: 'completed';
  tools: Array<OpenAIDeferrableTool | OpenAINamespaceTool>;
}

/**
 * The `tool_search_output` item for a client-executed search: the tools found, loaded, in their groups' namespaces
 * (the same namespaces as {@link openAIToolSearchTools}). A failed search, or one that found nothing, loads nothing.
 * `call` is the call from {@link openAIToolSearchCalls} (OpenAI's `call_id` is sent back) or the `call_id` itself.
 */
export function openAIToolSearchOutput(search: ToolSearch, call: string | ToolCallRequest, result: ActionResult<unknown>, options: Pick<OpenAIToolSearchOptions, 'strict' | 'namespaces' | 'context'> = {}): OpenAIToolSearchOutput {
  const found = result.ok ? (result.result as ToolSearchFound | undefined) : undefined;
  const names = new Set((found?.tools ?? []).map((tool) => tool.name));
  const listing = openAIToolSearchTools(search, { ...options, execution: 'server' });
  const tools = listing.flatMap((entry): OpenAINamespaceTool[] => {
    if (entry.type !== 'namespace') return [];
    const loaded = entry.tools.filter((tool) => names.has(tool.name));
    return loaded.length === 0 ? [] : [{ ...entry, tools: loaded }];
  });
  return { type: 'tool_search_output', call_id: providerIdOf(call), execution: 'client', status: 'completed', tools };
}
