import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpClientOptions } from './mcp-client-options';

/**
 * A new SDK transport for `options` (`command` or `url`). The transport modules are loaded on first use, so an
 * adapter that only uses HTTP never loads the process-spawning code, and the other way round. `require` rather than
 * `import()`, so the load also works where ESM-in-CJS loading is not available (jest's VM).
 */
export function createTransport(options: McpClientOptions): Transport {
  if (options.command !== undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load of the stdio transport
    const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js') as typeof import('@modelcontextprotocol/sdk/client/stdio.js');
    return new StdioClientTransport({
      command: options.command,
      args: [...(options.args ?? [])],
      ...(options.env === undefined ? {} : { env: { ...options.env } }),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.stderr === undefined ? {} : { stderr: options.stderr }),
    });
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load of the Streamable HTTP transport
  const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const transportOptions = options.transportOptions ?? {};
  const headers = options.headers === undefined ? undefined : { ...(transportOptions.requestInit?.headers as Record<string, string> | undefined), ...options.headers };
  return new StreamableHTTPClientTransport(new URL(String(options.url)), {
    ...transportOptions,
    ...(headers === undefined ? {} : { requestInit: { ...transportOptions.requestInit, headers } }),
  });
}

/**
 * Whether `error` is a Streamable HTTP server's 404 to a request carrying a session id: the server no longer knows
 * the session (it restarted, or expired it), so it did not process the request, and the client must start a new
 * session (MCP specification 2025-06-18, "Session Management").
 */
export function isSessionGone(error: unknown, options: McpClientOptions): boolean {
  if (options.url === undefined) return false;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- already loaded by createTransport for a url
  const { StreamableHTTPError } = require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  return error instanceof StreamableHTTPError && error.code === 404;
}
