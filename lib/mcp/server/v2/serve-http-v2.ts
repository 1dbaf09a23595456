import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpRequestContext } from '@modelcontextprotocol/server';
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { httpFront, httpLimits, listenHttp, reject, stopHttp } from '../http-front';
import { HttpSessions, type HttpSession } from '../http-sessions';
import { sessionEventStore } from '../session-event-store';
import type { McpBearerAuthOptions, McpHttpEndpoint, ServeHttpOptions } from '../serve';
import type { McpSdk2ServerLike } from './mcp-server-v2-like';
import type { NodeSdk, ServerSdk } from './sdk-v2';

/** One 2025-11-25 (or older) session. */
type Session = HttpSession<NodeStreamableHTTPServerTransport, McpSdk2ServerLike>;

/** The factory `serveHttp` calls for each 2026-07-28 request and each older client's session. */
export type McpSdk2ServerFactory = (context: McpRequestContext) => McpSdk2ServerLike | Promise<McpSdk2ServerLike>;

/**
 * The bearer-token check of {@link ServeHttpOptions.auth}: SDK v2's `verifyBearerToken` on the `Authorization`
 * header; a refusal is answered with the SDK's `bearerAuthChallengeResponse` (401 or 403, `WWW-Authenticate`).
 */
function bearerAuth(sdk: ServerSdk, auth: McpBearerAuthOptions): (req: IncomingMessage, res: ServerResponse) => Promise<string | undefined> {
  return async (req, res) => {
    try {
      const info = await sdk.verifyBearerToken(req.headers.authorization, auth);
      if (typeof info.clientId !== 'string') {
        reject(res, 500, -32603, 'Internal error: the token verifier returned no clientId, so the caller cannot be told apart.');
        return undefined;
      }
      (req as IncomingMessage & { auth?: unknown }).auth = info;
      return info.clientId;
    } catch (error) {
      const answer = sdk.bearerAuthChallengeResponse(error, auth);
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(await answer.text());
      return undefined;
    }
  };
}

/**
 * @internal `serveHttp` on SDK v2: one endpoint for both protocol eras.
 *
 * - 2026-07-28 requests (stateless, `server/discover`, `subscriptions/listen`) go to the SDK's `createMcpHandler`
 *   (with `legacy: 'reject'`), a fresh server from the factory per request.
 * - 2025-11-25 and older clients (the SDK's `isLegacyRequest` tells them apart) keep sessions: each `initialize`
 *   opens one with its own server and a `NodeStreamableHTTPServerTransport`, so they keep elicitation (the approval
 *   question), the standalone SSE stream and `DELETE`. At most `maxSessions` are open; a session idle for
 *   `idleTimeoutMs` is closed.
 * - In front of both, `httpFront`: `Host` and `Origin` validation (the SDK's `validateHostHeader` /
 *   `validateOriginHeader`, 403), the body limit (413), the session cap (503), 404 for an unknown session id.
 */
export async function serveHttpSdk2(createServer: McpSdk2ServerFactory, options: ServeHttpOptions, host: string, path: string, sdk: ServerSdk, node: NodeSdk): Promise<McpHttpEndpoint> {
  const allowedHosts = options.allowedHosts === undefined ? sdk.localhostAllowedHostnames() : [...options.allowedHosts];
  const allowedOrigins = options.allowedOrigins === undefined ? allowedHosts : [...options.allowedOrigins];
  const { idleMs, maxSessions, maxBodyBytes: maxBody } = httpLimits(options, sdk.DEFAULT_MAX_REQUEST_BODY_SIZE);

  const onerror = (): void => undefined; // a client's broken exchange is its own; the server goes on
  const handler = sdk.createMcpHandler((context) => createServer(context) as never, { legacy: 'reject', maxRequestBodySize: maxBody, onerror });
  const modern = node.toNodeHandler(handler, { maxRequestBodySize: maxBody, onerror });
  const unsubscribe = (options.registries ?? []).map((registry) => registry.onListChange(() => handler.notify.toolsChanged()));
  const sessions = new HttpSessions<NodeStreamableHTTPServerTransport, McpSdk2ServerLike>(idleMs);

  const openSession = async (principal: string): Promise<Session> => {
    const server = await createServer({ era: 'legacy' });
    const transport: NodeStreamableHTTPServerTransport = new node.NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.add(id, created),
      ...(options.eventStore === undefined ? {} : { eventStore: sessionEventStore(options.eventStore) as never }),
      ...(options.retryIntervalMs === undefined ? {} : { retryInterval: options.retryIntervalMs }),
      maxRequestBodySize: maxBody,
    });
    const created: Session = sessions.create(transport, server, principal);
    transport.onerror = onerror;
    await (server as unknown as { connect(t: unknown): Promise<void> }).connect(transport);
    return created;
  };

  const listener = httpFront<NodeStreamableHTTPServerTransport, McpSdk2ServerLike>({
    path,
    maxBodyBytes: maxBody,
    maxSessions,
    sessions,
    checkHost: (header) => sdk.validateHostHeader(header, allowedHosts),
    checkOrigin: (header) => sdk.validateOriginHeader(header, allowedOrigins),
    isInitialize: (body) => sdk.isInitializeRequest(body),
    openSession,
    authenticate: options.auth === undefined ? undefined : bearerAuth(sdk, options.auth),
    handle: (session, req, res, body) => session.transport.handleRequest(req, res, body),
    modern: {
      isLegacy: async (req, body) => sdk.isLegacyRequest(await node.toWebRequest(req, body), body),
      handle: (req, res, body) => modern(req, res, body),
    },
  });

  const { httpServer, url } = await listenHttp(listener, host, options.port ?? 0, path);
  return {
    url,
    httpServer,
    notify: handler.notify,
    get sessions() {
      return sessions.size;
    },
    async close() {
      for (const stop of unsubscribe) stop();
      await sessions.closeAll();
      await handler.close();
      await stopHttp(httpServer);
    },
  };
}
