import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpRequestContext } from '@modelcontextprotocol/server';
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServerError } from '../errors';
import { HttpSessions, type HttpSession } from '../http-sessions';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, type McpHttpEndpoint, type ServeHttpOptions } from '../serve';
import type { McpSdk2ServerLike } from './mcp-server-v2-like';
import type { NodeSdk, ServerSdk } from './sdk-v2';

/** One 2025-11-25 (or older) session. */
type Session = HttpSession<NodeStreamableHTTPServerTransport, McpSdk2ServerLike>;

/** The factory `serveHttp` calls for each 2026-07-28 request and each older client's session. */
export type McpSdk2ServerFactory = (context: McpRequestContext) => McpSdk2ServerLike | Promise<McpSdk2ServerLike>;

/** A JSON-RPC error answer with `status`, written without a stack trace anywhere. */
function reject(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'application/json', ...(status === 413 ? { Connection: 'close' } : {}) });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * How deep a request body may nest (objects and arrays). Deeper bodies overflow the stack of the SDK's recursive
 * schema checks (a 500 for what is the client's error); no MCP message needs a tenth of it.
 */
const MAX_BODY_DEPTH = 512;

/** Whether `value` nests objects and arrays deeper than `limit` (walked without recursion). */
function nestsDeeper(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Reads a request body up to `limit` bytes. @returns the text, or undefined when it was larger. */
function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
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
 * - In front of both: `Host` and `Origin` validation (the SDK's `validateHostHeader` / `validateOriginHeader`, 403),
 *   a body limit (413), JSON parse errors and bodies nested deeper than 512 levels (400); a request for an unknown session id is answered 404 (POST, GET and
 *   DELETE alike). Nothing of a rejected request is logged.
 */
export async function serveHttpSdk2(createServer: McpSdk2ServerFactory, options: ServeHttpOptions, host: string, path: string, sdk: ServerSdk, node: NodeSdk): Promise<McpHttpEndpoint> {
  const allowedHosts = options.allowedHosts === undefined ? sdk.localhostAllowedHostnames() : [...options.allowedHosts];
  const allowedOrigins = options.allowedOrigins === undefined ? allowedHosts : [...options.allowedOrigins];
  const idleMs = options.idleTimeoutMs ?? DEFAULT_SESSION_IDLE_MS;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const maxBody = options.maxBodyBytes ?? sdk.DEFAULT_MAX_REQUEST_BODY_SIZE;
  if (!(Number.isFinite(idleMs) && idleMs >= 0)) throw new McpServerError('MCP_HTTP_OPTIONS', `serveHttp: idleTimeoutMs must be a number of milliseconds of at least 0 (got ${String(idleMs)}).`);
  if (!(Number.isInteger(maxSessions) && maxSessions >= 1)) throw new McpServerError('MCP_HTTP_OPTIONS', `serveHttp: maxSessions must be a whole number of at least 1 (got ${String(maxSessions)}).`);
  if (!(Number.isInteger(maxBody) && maxBody >= 1)) throw new McpServerError('MCP_HTTP_OPTIONS', `serveHttp: maxBodyBytes must be a whole number of bytes of at least 1 (got ${String(maxBody)}).`);

  const onerror = (): void => undefined; // a client's broken exchange is its own; the server goes on
  const handler = sdk.createMcpHandler((context) => createServer(context) as never, { legacy: 'reject', maxRequestBodySize: maxBody, onerror });
  const modern = node.toNodeHandler(handler, { maxRequestBodySize: maxBody, onerror });
  const unsubscribe = (options.registries ?? []).map((registry) => registry.onListChange(() => handler.notify.toolsChanged()));
  const sessions = new HttpSessions<NodeStreamableHTTPServerTransport, McpSdk2ServerLike>(idleMs);

  const openSession = async (): Promise<Session> => {
    const server = await createServer({ era: 'legacy' });
    const transport: NodeStreamableHTTPServerTransport = new node.NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.add(id, created),
      ...(options.eventStore === undefined ? {} : { eventStore: options.eventStore as never }),
      ...(options.retryIntervalMs === undefined ? {} : { retryInterval: options.retryIntervalMs }),
      maxRequestBodySize: maxBody,
    });
    const created: Session = sessions.create(transport, server);
    transport.onerror = onerror;
    await (server as unknown as { connect(t: unknown): Promise<void> }).connect(transport);
    return created;
  };

  const legacy = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    const id = req.headers['mcp-session-id'];
    let session = sessions.of(id);
    if (session === undefined) {
      if (id !== undefined) return reject(res, 404, -32001, 'Session not found: it ended or expired; initialize a new session.');
      if (req.method !== 'POST' || !sdk.isInitializeRequest(body)) return reject(res, 400, -32000, 'Bad Request: no valid session id provided; send initialize first.');
      if (sessions.size >= maxSessions) return reject(res, 503, -32000, `Too many sessions: this endpoint holds at most ${maxSessions} sessions of 2025-11-25 (or older) clients at once; end one (DELETE) or try again later.`);
      session = await openSession();
    }
    sessions.track(session, res);
    await session.transport.handleRequest(req, res, body);
  };

  const listener = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== path) return reject(res, 404, -32000, `Not found: the MCP endpoint is ${path}.`);
    const hostCheck = sdk.validateHostHeader(req.headers.host, allowedHosts);
    if (!hostCheck.ok) return reject(res, 403, -32000, hostCheck.message);
    const origin = req.headers.origin;
    const originCheck = sdk.validateOriginHeader(origin, allowedOrigins);
    if (!originCheck.ok) return reject(res, 403, -32000, originCheck.message);
    if (req.method !== 'POST') {
      if (req.headers['mcp-session-id'] !== undefined) return legacy(req, res, undefined);
      return modern(req, res);
    }
    const text = await readBody(req, maxBody);
    if (text === undefined) return reject(res, 413, -32000, `Payload too large: the request body is over ${maxBody} bytes.`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return reject(res, 400, -32700, 'Parse error: the request body is not JSON.');
    }
    if (nestsDeeper(body, MAX_BODY_DEPTH)) return reject(res, 400, -32600, `Invalid Request: the request body nests objects and arrays deeper than ${MAX_BODY_DEPTH} levels.`);
    if (req.headers['mcp-session-id'] !== undefined) return legacy(req, res, body);
    if (await sdk.isLegacyRequest(await node.toWebRequest(req, body), body)) return legacy(req, res, body);
    return modern(req, res, body);
  };

  const httpServer = createHttpServer((req, res) => {
    listener(req, res).catch(() => reject(res, 500, -32603, 'Internal error'));
  });
  await new Promise<void>((resolve, fail) => {
    httpServer.once('error', fail);
    httpServer.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${path}`,
    httpServer,
    notify: handler.notify,
    get sessions() {
      return sessions.size;
    },
    async close() {
      for (const stop of unsubscribe) stop();
      await sessions.closeAll();
      await handler.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
