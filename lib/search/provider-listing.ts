import type { ToolContext } from '../context/tool-context';
import type { Tool } from '../tool/tool';
import type { ToolFormat } from '../tool/tool-format';
import { ToolSearchError } from './errors';
import type { ToolSearch } from './tool-search';
import type { ToolSearchSession } from './tool-search-session';

/** The tools of a native tool-search listing: always listed ones and deferred ones, each with its entry, registration order. */
export interface SplitListing<E> {
  readonly always: Array<{ readonly tool: Tool; readonly entry: E }>;
  readonly deferred: Array<{ readonly tool: Tool; readonly entry: E }>;
}

/**
 * Renders the registry's tools offered in `context` in `format` (cached entries, see `tools.getSchema`) and splits them
 * into always-listed and deferred ones; tools a tool-wide deny rule names are left out of both.
 */
export function splitListing<E extends { readonly name: string }>(search: ToolSearch, format: ToolFormat<E>, context: ToolContext | undefined): SplitListing<E> {
  const entries = search.tools.getSchema(format, context);
  const always: Array<{ tool: Tool; entry: E }> = [];
  const deferred: Array<{ tool: Tool; entry: E }> = [];
  for (const entry of entries) {
    const tool = search.tools.get(entry.name)!;
    if (search.isAlwaysListed(tool)) always.push({ tool, entry });
    else if (!search.isDenied(tool)) deferred.push({ tool, entry });
  }
  return { always, deferred };
}

/** The session a client-executed listing needs. @throws ToolSearchError `INVALID_TOOL_SEARCH_OPTION` without one. */
export function requireSession(session: ToolSearchSession | undefined, where: string): ToolSearchSession {
  if (session !== undefined) return session;
  throw new ToolSearchError('INVALID_TOOL_SEARCH_OPTION', `${where}: the client-executed search needs the conversation's session ({ session: toolSearch.session() }).`);
}
