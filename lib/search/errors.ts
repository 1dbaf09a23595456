import { AgentToolkitError } from '../errors';

/**
 * Stable codes of {@link ToolSearchError} (match on these, never on the message):
 *
 * - `INVALID_TOOL_SEARCH_OPTION`: an option of `new ToolSearch(...)` or of a tool-search listing is out of range (a
 *   `maxResults` that is not an integer from 1 to 50, a meta tool name that is taken or not a valid tool name).
 */
export type ToolSearchErrorCode = 'INVALID_TOOL_SEARCH_OPTION';

/** An error of the tool search (`agenttoolkit/search`); `code` is one of {@link ToolSearchErrorCode}. */
export class ToolSearchError extends AgentToolkitError<ToolSearchErrorCode> {}
