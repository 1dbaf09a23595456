/**
 * agenttoolkit/mcp: MCP both ways through the official SDK (`@modelcontextprotocol/sdk`, an optional peer dependency
 * loaded only by this entry point).
 */
// MCP client: another MCP server's tools as tools of a registry.
export { McpClientTools, connectMcpServer } from './client/mcp-client-tools';
export type { McpClientOptions, McpToolDrift, McpToolsChange } from './client/mcp-client-options';
export { McpRemoteTool, type RemoteCall, type RemoteToolInit } from './client/mcp-remote-tool';
export { McpClientError, type McpClientErrorCode } from './client/mcp-client-error';
export { localToolName, toolFingerprint } from './client/mcp-tool-naming';
export { toolOutput as mcpToolOutput, type McpCallResult } from './client/mcp-call-result';
