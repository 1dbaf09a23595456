import type { ActionResult } from '../../result';
import type { Tools } from '../../tools';
import { McpToolServer, type ServeToolsOptions } from './mcp-tool-server';
import type { McpSdk1ServerLike, McpServerLike } from './mcp-server-like';
import { isSdk2Server, type McpSdk2ServerLike } from './v2/mcp-server-v2-like';
import { McpToolServerV2 } from './v2/mcp-tool-server-v2';

/**
 * Serves a `Tools` registry as MCP tools on an `McpServer` you own: an SDK v2 `McpServer`
 * (`@modelcontextprotocol/server`, which speaks 2026-07-28 and 2025-11-25; see {@link McpToolServerV2}) or,
 * deprecated until 2027-01-31, an SDK 1.x one (`@modelcontextprotocol/sdk`; see {@link McpToolServer}). Call it
 * inside the factory you give `serveHttp` or `serveStdio` (SDK v2 builds a server per request or connection), or
 * before `connect` on a server you connect yourself.
 *
 * `tools/list` lists the server's tools (the registry's and those you register natively) sorted by name, comparing
 * UTF-16 code units as `Array.prototype.sort()` does (`B` before `a`, `10` before `9`), on either SDK line and every
 * revision. The SDK lists in the order its tools were registered, and following the registry's listing changes
 * (a group switched off and on, a tool removed and registered again) takes tools off the server and registers them
 * again, so that order would be the server's history: a session would list what a fresh server lists in another
 * order. Sorted, the same tools list the same way on every server and after every change, so a client or a model
 * provider's prompt cache sees the same listing; the comparison is locale-free, so every host sorts alike. The
 * registry's own order is not used: it is the order of registration, which is history too.
 *
 * The 2026-07-28 listing cache hints (`ttlMs`, `cacheScope`) are the `McpServer`'s: pass
 * `cacheHints: { 'tools/list': { ttlMs, cacheScope } }` in its options (SDK v2). Without them a 2026-07-28 listing
 * carries the revision's defaults (`ttlMs: 0`, `cacheScope: 'private'`); 2025-11-25 listings carry none.
 *
 * @example
 * ```ts
 * const handle = serveStdio(() => {
 *   const server = new McpServer({ name: 'billing', version: '1.0.0' });
 *   serveTools(server, tools);
 *   return server;
 * });
 * ```
 * @returns the served registry, whose `close()` takes the registry's tools off the server.
 * @throws McpServerError `MCP_TOOL_NAME_TAKEN` when a name is taken by a native tool; `MCP_HTTP_OPTIONS` for an
 *   `approvalState` key shorter than 32 bytes. On SDK v2 a server connected already is served with the capabilities it
 *   declared (they are fixed once connected): declare `tools` (and `resources` for saved outputs) when you make it, or
 *   serve before connecting, which also declares `logging`.
 */
export function serveTools(server: McpSdk2ServerLike, tools: Tools<ActionResult<unknown>>, options?: ServeToolsOptions): McpToolServerV2;
/** @deprecated SDK 1.x (`@modelcontextprotocol/sdk`): supported until 2027-01-31; move to `@modelcontextprotocol/server`. */
export function serveTools(server: McpSdk1ServerLike, tools: Tools<ActionResult<unknown>>, options?: ServeToolsOptions): McpToolServer;
export function serveTools(server: McpServerLike, tools: Tools<ActionResult<unknown>>, options?: ServeToolsOptions): McpToolServer | McpToolServerV2 {
  return isSdk2Server(server) ? new McpToolServerV2(server, tools, options) : new McpToolServer(server, tools, options);
}
