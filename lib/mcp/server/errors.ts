import { AgentToolkitError } from '../../errors';

/**
 * Stable codes of the MCP server adapter (match on `error.code`, never on the message):
 *
 * - `MCP_TOOL_NAME_TAKEN`: a tool of the registry (or a skill served as a prompt) has the name of a tool (prompt)
 *   registered natively on the same `McpServer`.
 * - `MCP_HOST_VALIDATION`: `serveHttp` was asked to bind a non-loopback address without `allowedHosts`, which would
 *   switch off host-header validation.
 * - `MCP_HTTP_OPTIONS`: a `serveHttp` option has an unusable value (`idleTimeoutMs`, `maxSessions`, `maxBodyBytes`,
 *   an approval state's key or ttl), or `auth` was given with SDK 1.x servers.
 * - `MCP_EVENT_FOREIGN`: a session's view of the shared `eventStore` was asked to replay after an event of another
 *   session's stream (`Last-Event-ID`); the SDK answers the client with an error and nothing is replayed.
 * - `MCP_SDK_MISSING`: the optional peer dependency `@modelcontextprotocol/sdk` (or the `zod` it needs) is not
 *   installed.
 * - `MCP_INPUT_SUSPENDED`: what a tool's waiting question (`McpRequest.elicitInput`, ...) rejects with when its
 *   2026-07-28 round is cut short: the call answers `input_required` and the tool runs again on the retry.
 * - `MCP_INPUT_KEY_TAKEN`: two questions of one 2026-07-28 round use the same `key`, or a question uses `approval`
 *   (the approval question's key).
 */
export type McpServerErrorCode = 'MCP_TOOL_NAME_TAKEN' | 'MCP_HOST_VALIDATION' | 'MCP_HTTP_OPTIONS' | 'MCP_SDK_MISSING' | 'MCP_INPUT_SUSPENDED' | 'MCP_INPUT_KEY_TAKEN' | 'MCP_EVENT_FOREIGN';

/** A refusal of the MCP server adapter; see {@link McpServerErrorCode}. */
export class McpServerError extends AgentToolkitError<McpServerErrorCode> {}
