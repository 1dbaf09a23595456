import type { ToolContext } from '../context/tool-context';
import { PermissionDecision } from '../permissions/permission-decision';
import type { ObjectSchema } from '../schema/schema-types';
import { cutText } from '../text/cut-text';
import { BASIC_GROUP } from '../tool/tool-groups';
import type { OfferedTools, ToolSession } from '../tool/tool-session';
import { Tool } from '../tool/tool';
import type { ToolSearchHost } from './tool-search-host';

/** What `search_tools` returns: the tools found, now callable, with their descriptions. */
export interface ToolSearchFound {
  /** The tools found, best first. */
  readonly tools: ReadonlyArray<{ readonly name: string; readonly description: string }>;
  /** What the model can do next. */
  readonly message: string;
}

/** A found tool's description in the search result is cut to this many characters (the full one comes with the listing). */
const DESCRIPTION_CHARS = 300;

/**
 * The tool-search state of one conversation: the deferred tools it discovered, in discovery order. Pass it to
 * `tools.getSchema(format, context, session)` and `tools.execute(name, args, { session })` (or the provider helpers'
 * `session` option). Create it with `toolSearch.session()`; keep one per conversation (two conversations on one
 * registry never see each other's discoveries).
 *
 * Listing order: the always-listed tools (in the order of the `alwaysListed` names, or registration order for a
 * predicate), then the search tool, then the discovered tools in
 * the order they were found, so each discovery appends to the listing and a provider's prompt cache of the earlier
 * part stays valid. A discovered tool that stops being usable (unavailable, its group switched off, denied) leaves
 * the listing and is refused; it comes back when it is usable again.
 */
export class ToolSearchSession implements ToolSession {
  private readonly found = new Set<string>();
  /** The meta tool of this conversation (its results land in this session). */
  readonly searchTool: Tool;

  /** Use `toolSearch.session(discovered?)`. */
  constructor(
    readonly search: ToolSearchHost,
    discovered: Iterable<string> = [],
  ) {
    for (const name of discovered) this.found.add(name);
    this.searchTool = searchTool(search, (query, limit, context) => this.run(query, limit, context));
  }

  /** The names discovered so far, in discovery order (store them to resume the conversation with `toolSearch.session(names)`). */
  get discovered(): string[] {
    return [...this.found];
  }

  /** Marks tools as discovered from the host side (names of registered tools; others are ignored). Returns this. */
  discover(...names: string[]): this {
    for (const name of names) if (this.search.tools.get(name) !== undefined) this.found.add(name);
    return this;
  }

  /** Whether the model may call `tool` in this conversation now: always listed, or discovered and not denied. */
  isLoaded(tool: Tool): boolean {
    return this.search.isAlwaysListed(tool) || (this.found.has(tool.name) && this.search.tools.get(tool.name) === tool && !this.search.isDenied(tool));
  }

  /** {@inheritDoc index!ToolSession.listing} */
  listing(offered: OfferedTools, _context: ToolContext): Tool[] {
    const names = this.search.alwaysListedNames;
    const always = names === undefined ? offered.all().filter((tool) => this.search.isAlwaysListed(tool)) : names.flatMap((name) => offered.get(name) ?? []);
    const discovered = [...this.found].flatMap((name) => {
      const tool = offered.get(name);
      return tool !== undefined && !this.search.isAlwaysListed(tool) && !this.search.isDenied(tool) ? [tool] : [];
    });
    return [...always, this.searchTool, ...discovered];
  }

  /** {@inheritDoc index!ToolSession.ownTool} */
  ownTool(name: string): Tool | undefined {
    return name === this.searchTool.name ? this.searchTool : undefined;
  }

  /** {@inheritDoc index!ToolSession.refusal} */
  refusal(tool: Tool, _context: ToolContext): string | undefined {
    if (tool === this.searchTool || this.isLoaded(tool)) return undefined;
    return `Tool '${tool.name}' is not loaded in this conversation. Call ${this.searchTool.name} with a few words about what you need first; the tools it finds can be called from then on.`;
  }

  private run(query: string, limit: number | undefined, context: ToolContext): ToolSearchFound {
    const hits = this.search.search(query, { context, limit });
    for (const hit of hits) this.found.add(hit.tool.name);
    const tools = hits.map(({ tool }) => ({ name: tool.name, description: cutText(firstLine(tool, context), DESCRIPTION_CHARS) }));
    const message =
      tools.length === 0
        ? `No tool matches "${cutText(query, 200)}". Try other words: the action, the service or the kind of object.`
        : `${tools.length === 1 ? 'This tool is' : `These ${tools.length} tools are`} loaded now: call ${tools.length === 1 ? 'it' : 'them'} directly from your next call on.`;
    return { tools, message };
  }
}

function firstLine(tool: Tool, context: ToolContext): string {
  try {
    return tool.resolveDescription(context).split('\n', 1)[0]!;
  } catch {
    return '';
  }
}

/** The `search_tools` meta tool of one session. */
function searchTool(search: ToolSearchHost, run: (query: string, limit: number | undefined, context: ToolContext) => ToolSearchFound): Tool {
  const params = {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, maxLength: 500, description: 'What you want to do, in a few words: the action, the service, the kind of object (for example "open a pull request").' },
      limit: { type: 'integer', minimum: 1, maximum: search.maxResults, description: `How many tools to load at most (default ${search.maxResults}).` },
    },
    required: ['query'],
    additionalProperties: false,
  };
  return new Tool({
    name: search.toolName,
    description:
      'Find and load tools. Most of your tools are not listed until you search for them: describe the task in a few words, and the best matching tools ' +
      'are returned with their descriptions and become callable from your next call on. Search again with other words when none fits.',
    group: BASIC_GROUP,
    source: `meta tool '${search.toolName}'`,
    params: params as unknown as ObjectSchema,
    options: {},
    approval: false,
    body: (args, invocation) => run(args['query'] as string, args['limit'] as number | undefined, invocation.context),
    traits: { isReadOnly: true, isConcurrencySafe: false, checkPermissions: () => PermissionDecision.allow('Searching tools is always allowed.') },
  });
}
