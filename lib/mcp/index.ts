// MCP server: serve a Tools registry on an McpServer (optional peer dependency @modelcontextprotocol/sdk).
export { serveTools, McpToolServer, type ServeToolsOptions } from './server/mcp-tool-server';
export { McpRequest } from './server/mcp-request';
export { serveSkills, type McpSkillPrompts } from './server/serve-skills';
export { serveStdio, serveHttp, type ServeHttpOptions, type McpHttpEndpoint } from './server/serve';
export { McpServerError, type McpServerErrorCode } from './server/errors';
