import type { ToolContext } from '../context/tool-context';
import type { PermissionContext } from '../permissions/permission-context';
import { PermissionBehavior } from '../permissions/permission-behavior';
import { ruleNamesTool } from '../permissions/permission-subject';
import type { ActionResult } from '../result';
import { RESET_TOOLS } from '../tool/tool-groups';
import type { Tool } from '../tool/tool';
import type { Tools } from '../tools';
import { ToolSearchError } from './errors';
import { SearchIndex, toolDocument } from './search-index';
import type { ToolSearchHit, ToolSearchHost, ToolSearchQueryOptions } from './tool-search-host';
import { ToolSearchSession } from './tool-search-session';

/** The default name of the meta tool the model searches with. */
export const SEARCH_TOOLS = 'search_tools';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Options of `new ToolSearch(tools, options)`. */
export interface ToolSearchOptions {
  /**
   * Tools listed from the start of every conversation, by name (listed in this order) or by a predicate (listed in
   * registration order); every other tool is deferred: left out of the listing until the model finds it with the
   * search tool. The group switch `reset_tools` is always listed, first. Default: none.
   */
  readonly alwaysListed?: readonly string[] | ((tool: Tool) => boolean) | undefined;
  /** The most tools one search returns (and makes callable); 1 to 50, default 5. */
  readonly maxResults?: number | undefined;
  /** The name of the meta tool (default `search_tools`); it must not be a registered tool's name. */
  readonly toolName?: string | undefined;
  /**
   * The permission rules of the conversation (a `PermissionEngine`, or anything with its `context`): a tool that a
   * tool-wide deny rule names (`Bash`, `mcp__github`, not `Bash(rm:*)`) is never found nor listed. Read at each search,
   * so rules added later apply at once.
   */
  readonly permissions?: { readonly context: PermissionContext } | undefined;
}


/**
 * Tool search with deferred loading over a registry: most tools stay out of the listing, and the model finds the ones
 * it needs with a `search_tools` meta tool whose hits become callable from its next call on.
 *
 * The search is local and client-executed, so it works with every provider format: a full-text index, built on
 * the first search, over each tool's name, description, parameter names and descriptions, tags and group (BM25 with
 * per-field weights, backed by the MiniSearch library, loaded on the first search). Which tools a conversation discovered is the conversation's state, not the registry's:
 * create one {@link ToolSearchSession} per conversation with {@link session} and pass it to listings
 * (`tools.getSchema(format, context, session)`) and calls (`tools.execute(name, args, { session })`).
 *
 * Only tools the model may use are found: tools unavailable in the call's context, tools of an inactive group and
 * tools that a tool-wide deny rule of `permissions` names are never hits. The index follows registrations (it is
 * updated on the first search after the registry changed).
 *
 * @example
 * ```ts
 * const search = new ToolSearch(tools, { alwaysListed: ['read_file'] });
 * const session = search.session();
 * const listing = tools.getSchema(ToolSchemaFormat.OPENAI, undefined, session);
 * const result = await tools.execute('search_tools', { query: 'open a pull request' }, { session });
 * ```
 */
export class ToolSearch implements ToolSearchHost {
  /** The most tools one search returns. */
  readonly maxResults: number;
  /** The meta tool's name. */
  readonly toolName: string;
  /** The names of `alwaysListed` (with `reset_tools` first), or `undefined` when it is a predicate. */
  readonly alwaysListedNames: readonly string[] | undefined;
  private readonly alwaysListed: (tool: Tool) => boolean;
  private readonly permissions: { readonly context: PermissionContext } | undefined;
  private index: SearchIndex | undefined;
  private changed = true;

  /**
   * @param tools - the registry whose tools are searched.
   * @throws ToolSearchError `INVALID_TOOL_SEARCH_OPTION` for a `maxResults` that is not an integer from 1 to 50, or a
   *   `toolName` that is not a valid tool name or is a registered tool's name.
   */
  constructor(
    readonly tools: Tools<ActionResult<unknown>>,
    options: ToolSearchOptions = {},
  ) {
    const maxResults = options.maxResults ?? 5;
    if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 50) {
      throw new ToolSearchError('INVALID_TOOL_SEARCH_OPTION', `maxResults must be an integer from 1 to 50 (got ${String(maxResults)}).`);
    }
    const toolName = options.toolName ?? SEARCH_TOOLS;
    if (!TOOL_NAME.test(toolName)) throw new ToolSearchError('INVALID_TOOL_SEARCH_OPTION', `The search tool's name '${toolName}' is not a valid tool name: use 1 to 64 letters, digits, '_' or '-'.`);
    if (tools.get(toolName) !== undefined) throw new ToolSearchError('INVALID_TOOL_SEARCH_OPTION', `Tool '${toolName}' is already registered; pass another toolName to the tool search.`);
    this.maxResults = maxResults;
    this.toolName = toolName;
    const listed = options.alwaysListed ?? [];
    const names = typeof listed === 'function' ? undefined : new Set(listed);
    this.alwaysListedNames = names === undefined ? undefined : [...new Set([RESET_TOOLS, ...names])];
    this.alwaysListed = (tool) => tool.name === RESET_TOOLS || (names === undefined ? (listed as (tool: Tool) => boolean)(tool) === true : names.has(tool.name));
    this.permissions = options.permissions;
    tools.onListChange(() => (this.changed = true));
  }

  /** A new session: the discovered tools of one conversation (none yet, or `discovered`, for a conversation resumed from storage). */
  session(discovered: Iterable<string> = []): ToolSearchSession {
    return new ToolSearchSession(this, discovered);
  }

  /** Whether `tool` is listed from the start (not deferred). */
  isAlwaysListed(tool: Tool): boolean {
    return this.alwaysListed(tool);
  }

  /** Whether a tool-wide deny rule of the `permissions` option names `tool`. */
  isDenied(tool: Tool): boolean {
    const rules = this.permissions?.context.rules;
    return rules !== undefined && rules.some((rule) => rule.behavior === PermissionBehavior.DENY && rule.ruleContent === undefined && ruleNamesTool(rule, tool));
  }

  /**
   * The deferred tools the model may find in `context`, in registration order: registered, available, in an active
   * group, not always listed, not denied as a whole.
   */
  deferred(context: ToolContext = this.tools.context): Tool[] {
    return this.tools.getAvailable(context).filter((tool) => !this.alwaysListed(tool) && !this.isDenied(tool));
  }

  /**
   * The deferred tools that best match `query`, best first (at most `limit`, default `maxResults`). Only tools the
   * model may use in `context` are hits (see the class docs). An empty query finds nothing.
   */
  search(query: string, options: ToolSearchQueryOptions = {}): ToolSearchHit[] {
    const limit = options.limit ?? this.maxResults;
    if (query.trim() === '' || limit < 1) return [];
    const context = options.context ?? this.tools.context;
    const index = this.currentIndex();
    const inactive = new Set(this.tools.listGroups().flatMap((group) => (group.active ? [] : [group.name])));
    const accept = (tool: Tool): boolean => this.tools.get(tool.name) === tool && !inactive.has(tool.group) && !this.alwaysListed(tool) && isAvailable(tool, context) && !this.isDenied(tool);
    return index.search(query, limit, accept);
  }

  /**
   * The index over the registry's tools, brought up to date when a registration changed the list since the last
   * search: only tools registered since then are read.
   */
  private currentIndex(): SearchIndex {
    const index = (this.index ??= new SearchIndex());
    if (this.changed) {
      this.changed = false;
      index.sync(this.tools.list(), (tool) => toolDocument(tool, describe(tool, this.tools.context)));
    }
    return index;
  }
}

/** A tool's availability; a check that throws makes the tool unavailable (fail closed), as in the registry. */
function isAvailable(tool: Tool, context: ToolContext): boolean {
  try {
    return tool.isAvailable(context);
  } catch {
    return false;
  }
}

/** A tool's description for the index; one whose renderer throws is indexed by its other fields. */
function describe(tool: Tool, context: ToolContext): string {
  try {
    return tool.resolveDescription(context);
  } catch {
    return '';
  }
}
