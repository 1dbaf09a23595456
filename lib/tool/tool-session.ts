import type { ToolContext } from '../context/tool-context';
import type { Tool } from './tool';

/** The tools a registry offers in one context (available, group active), as a session reads them. */
export interface OfferedTools {
  /** Every offered tool, in registration order (a scan of the registry: use {@link get} where a name is known). */
  all(): readonly Tool[];
  /** The registered tool named `name` when it is offered, else `undefined`. */
  get(name: string): Tool | undefined;
}

/**
 * A per-conversation view of a registry: which of the tools it offers are listed, which extra tools the conversation
 * has, and which calls it refuses. One registry serves many conversations; each passes its own session to
 * `tools.getSchema(format, context, session)` and `tools.execute(name, args, { session })`. The tool search's
 * `ToolSearchSession` (`agenttoolkit/search`) implements it.
 */
export interface ToolSession {
  /**
   * The tools to list, in listing order, chosen among the tools the registry offers in `context`. May add tools of its
   * own (see {@link ownTool}).
   */
  listing(offered: OfferedTools, context: ToolContext): readonly Tool[];
  /** A tool this session adds to the registry's (such as `search_tools`), by name; `undefined` for any other name. */
  ownTool(name: string): Tool | undefined;
  /** Why a call of the registry's `tool` is refused in this conversation (model-facing text), or `undefined` when it may run. */
  refusal(tool: Tool, context: ToolContext): string | undefined;
}
