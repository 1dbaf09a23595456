/**
 * agenttoolkit/mcp: MCP both ways through the official SDK: v2 (`@modelcontextprotocol/server`, `/client`, `/node`;
 * protocol revisions 2026-07-28 and 2025-11-25) or, deprecated until 2027-01-31, 1.x (`@modelcontextprotocol/sdk`).
 * All are optional peer dependencies loaded only by this entry point.
 */
// MCP server: serve a Tools registry on an McpServer.
export { serveTools } from './server/serve-tools';
export { McpToolServer, type ServeToolsOptions } from './server/mcp-tool-server';
export { McpToolServerV2, APPROVAL_INPUT_KEY } from './server/v2/mcp-tool-server-v2';
export { McpMemoryUsedStates, McpRequestStates, type McpUsedStates, type McpApprovalStateOptions } from './server/v2/approval-state';
export { approvalPrompt, MAX_SHOWN_FIELD } from './server/approval-prompt';
export type { McpSdk2ServerLike } from './server/v2/mcp-server-v2-like';
export type { McpSdk2ServerFactory } from './server/v2/serve-http-v2';
export { serveStdio, serveHttp, type ServeStdioOptions, type McpStdioHandle } from './server/serve-endpoints';
export { McpRequest, type McpQuestionOptions } from './server/mcp-request';
export { serveSkills, type McpSkillPrompts } from './server/serve-skills';
export { mcpSkillsExtension, type McpSkillsExtension, type McpSkillsExtensionOptions } from './server/v2/skills-extension';
export { serveToolOutputs, TOOL_OUTPUTS_RESOURCE } from './server/serve-tool-outputs';
export { DEFAULT_SESSION_IDLE_MS, DEFAULT_MAX_SESSIONS, DEFAULT_MAX_BODY_BYTES, type ServeHttpOptions, type McpHttpEndpoint, type ListingSource, type McpListNotifier, type McpBearerAuthOptions } from './server/serve';
export { McpMemoryEventStore } from './server/memory-event-store';
export { McpServerError, type McpServerErrorCode } from './server/errors';
export type { McpServerLike, McpSdk1ServerLike, McpLowLevelServerLike } from './server/mcp-server-like';
// MCP client: another MCP server's tools as tools of a registry.
export { McpClientTools, connectMcpServer } from './client/mcp-client-tools';
export type { McpSdkClient } from './client/client-dialect';
export type { McpClientTelemetry, McpRequestStart, McpRequestTrace, McpRequestOutcome } from './client/mcp-telemetry';
export type { McpClientLike, McpClientOptions, McpToolDrift, McpToolsChange } from './client/mcp-client-options';
export { McpRemoteTool, type RemoteCall, type RemoteToolInit } from './client/mcp-remote-tool';
export { McpClientError, type McpClientErrorCode } from './client/mcp-client-error';
export { MCP_PROGRESS, progressOf, type McpProgress } from './client/mcp-progress';
export { localToolName, toolFingerprint } from './client/mcp-tool-naming';
export { toolOutput as mcpToolOutput, type McpCallResult } from './client/mcp-call-result';
