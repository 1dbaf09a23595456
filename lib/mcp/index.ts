/**
 * agenttoolkit/mcp: MCP both ways through the official SDK (`@modelcontextprotocol/sdk`, an optional peer dependency
 * loaded only by this entry point).
 */
// MCP server: serve a Tools registry on an McpServer.
export { serveTools, McpToolServer, type ServeToolsOptions } from './server/mcp-tool-server';
export { McpRequest } from './server/mcp-request';
export { serveSkills, type McpSkillPrompts } from './server/serve-skills';
export { serveToolOutputs, TOOL_OUTPUTS_RESOURCE } from './server/serve-tool-outputs';
export { serveStdio, serveHttp, DEFAULT_SESSION_IDLE_MS, type ServeHttpOptions, type McpHttpEndpoint } from './server/serve';
export { McpMemoryEventStore } from './server/memory-event-store';
export { McpServerError, type McpServerErrorCode } from './server/errors';
export type { McpServerLike, McpLowLevelServerLike } from './server/mcp-server-like';
// MCP client: another MCP server's tools as tools of a registry.
export { McpClientTools, connectMcpServer } from './client/mcp-client-tools';
export type { McpClientLike, McpClientOptions, McpToolDrift, McpToolsChange } from './client/mcp-client-options';
export { McpRemoteTool, type RemoteCall, type RemoteToolInit } from './client/mcp-remote-tool';
export { McpClientError, type McpClientErrorCode } from './client/mcp-client-error';
export { MCP_PROGRESS, progressOf, type McpProgress } from './client/mcp-progress';
export { localToolName, toolFingerprint } from './client/mcp-tool-naming';
export { toolOutput as mcpToolOutput, type McpCallResult } from './client/mcp-call-result';
