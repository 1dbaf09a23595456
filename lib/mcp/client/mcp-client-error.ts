import { AgentToolkitError } from '../../errors';

/**
 * Stable codes of {@link McpClientError}, the errors of the MCP client adapter (match on `error.code`, never on the
 * message):
 *
 * - `MCP_CLIENT_OPTIONS`: `McpClientTools.connect` got options it cannot use (no server, two servers, a server name
 *   that cannot be part of a tool name, a bad prefix or reconnection setting).
 * - `MCP_CONNECT_FAILED`: the server could not be started or reached, the MCP handshake failed, or its first
 *   `tools/list` failed; `cause` holds the underlying error. Nothing was registered.
 * - `MCP_CLIENT_CLOSED`: `refresh()` or `reconnect()` was called after `close()`.
 */
export type McpClientErrorCode = 'MCP_CLIENT_OPTIONS' | 'MCP_CONNECT_FAILED' | 'MCP_CLIENT_CLOSED';

/** An error of the MCP client adapter (`agenttoolkit/mcp`); `code` is one of {@link McpClientErrorCode}. */
export class McpClientError extends AgentToolkitError<McpClientErrorCode> {}
