import { randomUUID } from 'node:crypto';
import { McpServerError } from './errors';
import { checkHostHeader, checkOriginHeader } from './header-checks';
import { httpFront, httpLimits, listenHttp, stopHttp } from './http-front';
import { HttpSessions, type HttpSession } from './http-sessions';
import type { McpSdk1ServerLike } from './mcp-server-like';
import { sessionEventStore } from './session-event-store';
import { DEFAULT_MAX_BODY_BYTES, type McpHttpEndpoint, type ServeHttpOptions } from './serve';

type Transport = import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;
type EventStore = import('@modelcontextprotocol/sdk/server/streamableHttp.js').EventStore;

/**
 * @internal SDK 1.x: serves MCP over Streamable HTTP, stateful (one session per `initialize`, each with its own
 * `McpServer` from `createServer`, since an `McpServer` serves one connection), behind the same front as SDK v2
 * (`httpFront`): `Host` validation against DNS rebinding and `Origin` validation, both required by the MCP
 * specification (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning), 403;
 * the body limit (413); the session cap (503); 404 for an unknown session id.
 * @throws McpServerError `MCP_HTTP_OPTIONS` for an unusable `idleTimeoutMs`, `maxSessions` or `maxBodyBytes`, or
 *   `auth`, which needs SDK v2.
 */
export async function serveHttpSdk1(createServer: () => McpSdk1ServerLike | Promise<McpSdk1ServerLike>, options: ServeHttpOptions, host: string, path: string): Promise<McpHttpEndpoint> {
  /* eslint-disable @typescript-eslint/no-require-imports -- optional peer dependency, loaded on first use */
  const { StreamableHTTPServerTransport } = require('@modelcontextprotocol/sdk/server/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const { isInitializeRequest } = require('@modelcontextprotocol/sdk/types.js') as typeof import('@modelcontextprotocol/sdk/types.js');
  /* eslint-enable @typescript-eslint/no-require-imports */
  if (options.auth !== undefined) throw new McpServerError('MCP_HTTP_OPTIONS', 'serveHttp: auth (bearer tokens) needs SDK v2 servers (@modelcontextprotocol/server); SDK 1.x endpoints have no token check: pass a factory of SDK v2 servers, or authenticate in a proxy in front.');
  const allowedHosts = options.allowedHosts === undefined ? ['localhost', '127.0.0.1', '[::1]'] : [...options.allowedHosts];
  const allowedOrigins = options.allowedOrigins === undefined ? allowedHosts : [...options.allowedOrigins];
  const { idleMs, maxSessions, maxBodyBytes } = httpLimits(options, DEFAULT_MAX_BODY_BYTES);
  const sessions = new HttpSessions<Transport, McpSdk1ServerLike>(idleMs);

  const openSession = async (): Promise<HttpSession<Transport, McpSdk1ServerLike>> => {
    const server = await createServer();
    const transport: Transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.add(id, created),
      ...(options.eventStore === undefined ? {} : { eventStore: sessionEventStore(options.eventStore) as EventStore }),
      ...(options.retryIntervalMs === undefined ? {} : { retryInterval: options.retryIntervalMs }),
    });
    const created = sessions.create(transport, server);
    await server.connect(transport);
    return created;
  };

  const listener = httpFront<Transport, McpSdk1ServerLike>({
    path,
    maxBodyBytes,
    maxSessions,
    sessions,
    checkHost: (header) => checkHostHeader(header, allowedHosts),
    checkOrigin: (header) => checkOriginHeader(header, allowedOrigins),
    isInitialize: (body) => isInitializeRequest(body),
    openSession,
    handle: (session, req, res, body) => session.transport.handleRequest(req, res, body),
  });
  const { httpServer, url } = await listenHttp(listener, host, options.port ?? 0, path);
  return {
    url,
    httpServer,
    get sessions() {
      return sessions.size;
    },
    async close() {
      await sessions.closeAll();
      await stopHttp(httpServer);
    },
  };
}
