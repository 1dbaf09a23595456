import type { McpClientOptions } from './mcp-client-options';

/** The `fetch` both SDK lines' Streamable HTTP transports call (their `FetchLike`). */
type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** What the stdio transport of either SDK line is constructed with. */
interface StdioParameters {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  stderr?: 'inherit' | 'ignore' | 'pipe';
}

/**
 * @internal The transport classes of one SDK line, each loaded on first use, so an adapter that only uses HTTP never
 * loads the process-spawning code, and the other way round.
 */
export interface TransportClasses {
  stdio(): new (parameters: StdioParameters) => unknown;
  http(): new (url: URL, options: Record<string, unknown>) => unknown;
}

/**
 * @internal A new transport for `options`: stdio for `command`, Streamable HTTP for `url` (with `headers` merged
 * into `transportOptions.requestInit` and the POSTs sent through {@link sendAfterIoPoll}). Both SDK lines take the
 * same shapes; `classes` names the line.
 */
export function createTransport(options: McpClientOptions, classes: TransportClasses): unknown {
  if (options.command !== undefined) {
    const Stdio = classes.stdio();
    return new Stdio({
      command: options.command,
      args: [...(options.args ?? [])],
      ...(options.env === undefined ? {} : { env: { ...options.env } }),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.stderr === undefined ? {} : { stderr: options.stderr }),
    });
  }
  const Http = classes.http();
  const transportOptions = (options.transportOptions ?? {}) as { requestInit?: RequestInit; fetch?: Fetch };
  const headers = options.headers === undefined ? undefined : { ...(transportOptions.requestInit?.headers as Record<string, string> | undefined), ...options.headers };
  return new Http(new URL(String(options.url)), {
    ...transportOptions,
    ...(headers === undefined ? {} : { requestInit: { ...transportOptions.requestInit, headers } }),
    fetch: sendAfterIoPoll(transportOptions.fetch ?? ((url, init) => fetch(url, init))),
  });
}

/**
 * @internal `base`, except that a POST waits until the event loop has polled for I/O once after it was asked for.
 *
 * Why: a server that restarts (or closes idle connections) sends a FIN on each kept-alive connection. Until this
 * process's event loop polls its sockets, undici does not know, so a request made in that gap is written on the
 * dead connection and fails with `SocketError: other side closed` (`UND_ERR_SOCKET`), exactly as a server that
 * crashed while running it would: the bytes on the wire are the same, so a failed `tools/call` could only be reported
 * as "may or may not have run" (undici never retries it: https://github.com/nodejs/undici/issues/3492, and RFC 9110
 * section 9.2.2 says not to retry a non-idempotent request without knowing it was not applied). After the poll
 * undici has seen the FIN, drops the connection and sends on a new one, so the call reaches the restarted server.
 * Two `setImmediate` turns: the first may run in the check phase right after the poll that is running now, the
 * second runs after the next one. What remains is a FIN that arrives within the synchronous code between that poll
 * and the write: that is still reported as unknown.
 */
export function sendAfterIoPoll(base: Fetch): Fetch {
  return (url, init) => (init?.method === 'POST' ? afterIoPoll().then(() => base(url, init)) : base(url, init));
}

function afterIoPoll(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** @internal SDK 1.x's transports (`@modelcontextprotocol/sdk`). */
export const SDK1_TRANSPORTS: TransportClasses = {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load of the stdio transport
  stdio: () => (require('@modelcontextprotocol/sdk/client/stdio.js') as typeof import('@modelcontextprotocol/sdk/client/stdio.js')).StdioClientTransport,
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load of the Streamable HTTP transport
  http: () => (require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js')).StreamableHTTPClientTransport as unknown as ReturnType<TransportClasses['http']>,
};

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
