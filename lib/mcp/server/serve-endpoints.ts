import type { McpRequestContext } from '@modelcontextprotocol/server';
import { McpServerError } from './errors';
import type { McpSdk1ServerLike } from './mcp-server-like';
import { LOOPBACK, serveStdioSdk1, type McpHttpEndpoint, type ServeHttpOptions } from './serve';
import { serveHttpSdk1 } from './serve-http-sdk1';
import { isSdk2Server, type McpSdk2ServerLike } from './v2/mcp-server-v2-like';
import { serveHttpSdk2, type McpSdk2ServerFactory } from './v2/serve-http-v2';
import { sdksFor, serverSdk } from './v2/sdk-v2';

/** Options of {@link serveStdio} on SDK v2 (the SDK's `ServeStdioOptions`). */
export interface ServeStdioOptions {
  /** `serve` (default) answers a 2025-11-25 (or older) client too; `reject` serves 2026-07-28 only. */
  legacy?: 'serve' | 'reject' | undefined;
  /** Called with a transport or protocol error the connection survives. */
  onerror?: ((error: Error) => void) | undefined;
}

/** A running stdio server of SDK v2 (the SDK's `StdioServerHandle`). */
export interface McpStdioHandle {
  /** Closes the connection and its server. */
  close(): Promise<void>;
}

/**
 * Serves MCP over stdio (JSON-RPC on the process's stdin and stdout; write nothing else to stdout while it runs).
 *
 * - SDK v2: pass a factory; the SDK's `serveStdio` (`@modelcontextprotocol/server/stdio`) builds the server for the
 *   connection from it once the client's first message tells the era (2026-07-28 or 2025-11-25).
 * - SDK 1.x (deprecated until 2027-01-31): pass the `McpServer`; it is connected to a `StdioServerTransport`, and
 *   the promise resolves once connected.
 *
 * @example
 * ```ts
 * const handle = serveStdio(() => {
 *   const server = new McpServer({ name: 'billing', version: '1.0.0' });
 *   serveTools(server, tools);
 *   return server;
 * });
 * ```
 */
export function serveStdio(createServer: McpSdk2ServerFactory, options?: ServeStdioOptions): McpStdioHandle;
/** @deprecated SDK 1.x (`@modelcontextprotocol/sdk`): supported until 2027-01-31; pass a factory of SDK v2 servers. */
export function serveStdio(server: McpSdk1ServerLike): Promise<void>;
export function serveStdio(server: McpSdk2ServerFactory | McpSdk1ServerLike, options: ServeStdioOptions = {}): McpStdioHandle | Promise<void> {
  if (typeof server !== 'function') return serveStdioSdk1(server);
  serverSdk(); // a clear MCP_SDK_MISSING first
  // The SDK's serveStdio must come from the build of the factory's servers (see sdksFor): one is built to tell.
  const started = (async () => {
    const probe = await server({ era: 'legacy' });
    await probe.close().catch(() => undefined);
    const { serveStdio: sdkServeStdio } = await (await sdksFor(probe)).stdio();
    return sdkServeStdio((context) => server(context) as never, { ...(options.legacy === undefined ? {} : { legacy: options.legacy }), ...(options.onerror === undefined ? {} : { onerror: options.onerror }) });
  })();
  started.catch((error: unknown) => options.onerror?.(error instanceof Error ? error : new Error(String(error))));
  return { close: async () => (await started).close() };
}

/**
 * Serves MCP over Streamable HTTP from `createServer`, which builds a server (and serves your registry on it with
 * `serveTools`). Called once at start to tell the SDK line: the server it returns then is closed unused.
 *
 * - SDK v2 servers: one endpoint for 2026-07-28 clients (stateless requests, `server/discover`,
 *   `subscriptions/listen`; a server per request) and 2025-11-25 (or older) clients (a session and a server per
 *   `initialize`, so elicitation and `notifications/tools/list_changed` keep working).
 * - SDK 1.x servers (deprecated until 2027-01-31): sessions only.
 *
 * Both lines answer before any server sees the request: `Host` and `Origin` validation (403), a body limit (413), a
 * body that is not JSON or nests too deep (400), a session cap (503) and 404 for unknown sessions. See
 * `ServeHttpOptions`.
 *
 * Host validation is never off: a non-loopback `host` needs `allowedHosts`.
 *
 * @example
 * ```ts
 * const endpoint = await serveHttp(() => {
 *   const server = new McpServer({ name: 'billing', version: '1.0.0' });
 *   serveTools(server, tools);
 *   return server;
 * }, { port: 3000, registries: [tools] });
 * ```
 * @throws McpServerError `MCP_HOST_VALIDATION` for a non-loopback `host` without `allowedHosts`; `MCP_HTTP_OPTIONS`
 *   for an unusable `idleTimeoutMs`, `maxSessions` or `maxBodyBytes`.
 */
export async function serveHttp(createServer: (context: McpRequestContext) => McpSdk2ServerLike | McpSdk1ServerLike | Promise<McpSdk2ServerLike | McpSdk1ServerLike>, options: ServeHttpOptions = {}): Promise<McpHttpEndpoint> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  if (!LOOPBACK.has(host) && options.allowedHosts === undefined) {
    throw new McpServerError('MCP_HOST_VALIDATION', `serveHttp binds ${host}, which is not a loopback address: pass allowedHosts (the host names clients use) so host-header validation stays on.`);
  }
  const probe = await createServer({ era: 'legacy' });
  await probe.close().catch(() => undefined);
  if (isSdk2Server(probe)) {
    const sdks = await sdksFor(probe);
    return serveHttpSdk2(createServer as McpSdk2ServerFactory, options, host, path, sdks.server, sdks.node);
  }
  return serveHttpSdk1(createServer as () => McpSdk1ServerLike, options, host, path);
}
