import type { ToolContext } from '../context/tool-context';
import type { ActionResult } from '../result';
import type { Tool } from '../tool/tool';
import type { Tools } from '../tools';

/** One search hit: the tool and its score (higher is better; only the order is meaningful). */
export interface ToolSearchHit {
  readonly tool: Tool;
  readonly score: number;
}

/** Options of `toolSearch.search(query, options)`. */
export interface ToolSearchQueryOptions {
  /** The context the tools must be available in (default: the registry's active context). */
  readonly context?: ToolContext | undefined;
  /** The most hits returned (default: `maxResults`). */
  readonly limit?: number | undefined;
}

/** What a session reads of its `ToolSearch` (the class implements it; a module of its own so neither imports the other). */
export interface ToolSearchHost {
  readonly tools: Tools<ActionResult<unknown>>;
  readonly maxResults: number;
  readonly toolName: string;
  /** The names of the always-listed tools, in listing order, when given as names (`undefined` for a predicate). */
  readonly alwaysListedNames: readonly string[] | undefined;
  /** Whether `tool` is listed in every conversation, found or not. */
  isAlwaysListed(tool: Tool): boolean;
  /** Whether a tool-wide deny rule of the permission engine refuses `tool` (then it is never found). */
  isDenied(tool: Tool): boolean;
  /** The best matching tools for `query`, best first (at most `options.limit`, default `maxResults`). */
  search(query: string, options?: ToolSearchQueryOptions): ToolSearchHit[];
}
