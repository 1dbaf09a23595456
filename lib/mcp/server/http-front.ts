import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServerError } from './errors';
import type { HttpSession, HttpSessions, SessionTransport } from './http-sessions';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, type ServeHttpOptions } from './serve';

/** A header check's verdict (the shape of SDK v2's `validateHostHeader` / `validateOriginHeader`). */
export type HeaderVerdict = { ok: true } | { ok: false; message: string };

/**
 * @internal The session and body limits of `options`, defaults applied.
 * @throws McpServerError `MCP_HTTP_OPTIONS` for an unusable `idleTimeoutMs`, `maxSessions` or `maxBodyBytes`.
 */
export function httpLimits(options: ServeHttpOptions, defaultBodyBytes: number): { idleMs: number; maxSessions: number; maxBodyBytes: number } {
  const idleMs = options.idleTimeoutMs ?? DEFAULT_SESSION_IDLE_MS;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const maxBodyBytes = options.maxBodyBytes ?? defaultBodyBytes;
  if (!(Number.isFinite(idleMs) && idleMs >= 0)) throw new McpServerError('MCP_HTTP_OPTIONS', `serveHttp: idleTimeoutMs must be a number of milliseconds of at least 0 (got ${String(idleMs)}).`);
  if (!(Number.isInteger(maxSessions) && maxSessions >= 1)) throw new McpServerError('MCP_HTTP_OPTIONS', `serveHttp: maxSessions must be a whole number of at least 1 (got ${String(maxSessions)}).`);
  if (!(Number.isInteger(maxBodyBytes) && maxBodyBytes >= 1)) throw new McpServerError('MCP_HTTP_OPTIONS', `serveHttp: maxBodyBytes must be a whole number of bytes of at least 1 (got ${String(maxBodyBytes)}).`);
  return { idleMs, maxSessions, maxBodyBytes };
}

/** A JSON-RPC error answer with `status`, written without a stack trace anywhere. */
export function reject(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'application/json', ...(status === 413 ? { Connection: 'close' } : {}) });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * How deep a request body may nest (objects and arrays). Deeper bodies overflow the stack of the SDKs' recursive
 * schema checks (a 500 for what is the client's error); no MCP message needs a tenth of it.
 */
export const MAX_BODY_DEPTH = 512;

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

/** The 2026-07-28 side of an endpoint (SDK v2 only): the SDK's stateless handler and its era test. */
export interface ModernRoute {
  /** Whether a POST without a session id comes from a 2025-11-25 (or older) client. */
  isLegacy(req: IncomingMessage, body: unknown): Promise<boolean>;
  /** Serves a 2026-07-28 request (`body` parsed; `undefined` for GET and DELETE). */
  handle(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void>;
}

/** What {@link httpFront} fronts: the checks, the limits and the session table of one `serveHttp` endpoint. */
export interface HttpFrontOptions<T extends SessionTransport, S extends { close(): Promise<void> }> {
  readonly path: string;
  readonly maxBodyBytes: number;
  readonly maxSessions: number;
  readonly sessions: HttpSessions<T, S>;
  checkHost(header: string | undefined): HeaderVerdict;
  checkOrigin(header: string | undefined): HeaderVerdict;
  isInitialize(body: unknown): boolean;
  /** A new session owned by `principal`, not yet listed: its transport lists it as it answers `initialize`. */
  openSession(principal: string): Promise<HttpSession<T, S>>;
  /**
   * Authenticates a request that passed the header checks and sets `req.auth`, which both SDKs' transports hand
   * the server as `authInfo`. @returns the caller's principal, or undefined once it has answered the refusal itself.
   * Absent: every caller is the principal `''`.
   */
  authenticate?: ((req: IncomingMessage, res: ServerResponse) => Promise<string | undefined>) | undefined;
  /** Hands a request to its session's transport. */
  handle(session: HttpSession<T, S>, req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void>;
  /** Absent on SDK 1.x, where every client is a session's. */
  readonly modern?: ModernRoute | undefined;
}

/**
 * @internal The request listener of a `serveHttp` endpoint, on either SDK line:
 * - the path (404), `Host` and `Origin` (403), a body over `maxBodyBytes` (413), a body that is not JSON or nests
 *   deeper than {@link MAX_BODY_DEPTH} levels (400), each answered before any server sees the request, with a
 *   JSON-RPC error and nothing logged;
 * - with `authenticate`, a caller it refuses gets its answer (401 or 403 with the `WWW-Authenticate` challenge);
 * - a request naming a session goes to it, or is answered 404 when no such session is open or it is another
 *   principal's (POST, GET and DELETE);
 * - `initialize` opens a session unless `maxSessions` are open or being opened (503);
 * - on SDK v2, every other request from a 2026-07-28 client goes to the stateless `modern` route.
 */
export function httpFront<T extends SessionTransport, S extends { close(): Promise<void> }>(options: HttpFrontOptions<T, S>): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { sessions, maxSessions, maxBodyBytes, modern } = options;

  const opened = async (req: IncomingMessage, res: ServerResponse, body: unknown, principal: string): Promise<void> => {
    if (sessions.size + sessions.opening >= maxSessions) {
      return reject(res, 503, -32000, `Too many sessions: this endpoint holds at most ${maxSessions} sessions of 2025-11-25 (or older) clients at once; end one (DELETE) or try again later.`);
    }
    const release = sessions.reserve();
    let session: HttpSession<T, S> | undefined;
    try {
      session = await options.openSession(principal);
      sessions.track(session, res);
      await options.handle(session, req, res, body);
    } finally {
      release();
      // An initialize the transport refused opened no session: its server is not kept.
      if (session !== undefined && !sessions.lists(session)) await session.server.close().catch(() => undefined);
    }
  };

  const legacy = async (req: IncomingMessage, res: ServerResponse, body: unknown, principal: string): Promise<void> => {
    const id = req.headers['mcp-session-id'];
    const session = sessions.of(id);
    // Another principal's session is answered as an unknown one: a session id alone does not make a caller its owner.
    if (session !== undefined && session.principal === principal) {
      sessions.track(session, res);
      return options.handle(session, req, res, body);
    }
    if (id !== undefined) return reject(res, 404, -32001, 'Session not found: it ended or expired; initialize a new session.');
    if (req.method !== 'POST' || !options.isInitialize(body)) return reject(res, 400, -32000, 'Bad Request: no valid session id provided; send initialize first.');
    return opened(req, res, body, principal);
  };

  return async (req, res) => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== options.path) return reject(res, 404, -32000, `Not found: the MCP endpoint is ${options.path}.`);
    const host = options.checkHost(req.headers.host);
    if (!host.ok) return reject(res, 403, -32000, host.message);
    const origin = options.checkOrigin(req.headers.origin);
    if (!origin.ok) return reject(res, 403, -32000, origin.message);
    const principal = options.authenticate === undefined ? '' : await options.authenticate(req, res);
    if (principal === undefined) return;
    if (req.method !== 'POST') {
      if (req.headers['mcp-session-id'] !== undefined || modern === undefined) return legacy(req, res, undefined, principal);
      return modern.handle(req, res);
    }
    const text = await readBody(req, maxBodyBytes);
    if (text === undefined) return reject(res, 413, -32000, `Payload too large: the request body is over ${maxBodyBytes} bytes.`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return reject(res, 400, -32700, 'Parse error: the request body is not JSON.');
    }
    if (nestsDeeper(body, MAX_BODY_DEPTH)) return reject(res, 400, -32600, `Invalid Request: the request body nests objects and arrays deeper than ${MAX_BODY_DEPTH} levels.`);
    if (req.headers['mcp-session-id'] !== undefined || modern === undefined || (await modern.isLegacy(req, body))) return legacy(req, res, body, principal);
    return modern.handle(req, res, body);
  };
}

/**
 * @internal Listens with `listener` on `host`:`port` (0: any free port); a listener that throws is answered 500
 * without its error.
 * @returns the server and the endpoint URL (`path` on the bound address).
 */
export async function listenHttp(listener: (req: IncomingMessage, res: ServerResponse) => Promise<void>, host: string, port: number, path: string): Promise<{ httpServer: Server; url: string }> {
  const httpServer = createServer((req, res) => {
    listener(req, res).catch(() => reject(res, 500, -32603, 'Internal error'));
  });
  await new Promise<void>((resolve, fail) => {
    httpServer.once('error', fail);
    httpServer.listen(port, host, () => resolve());
  });
  const bound = (httpServer.address() as AddressInfo).port;
  return { httpServer, url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}${path}` };
}

/** @internal Stops `httpServer`, its open connections (response streams included) too. */
export async function stopHttp(httpServer: Server): Promise<void> {
  httpServer.closeAllConnections();
  await new Promise<void>((resolve) => httpServer.close(() => resolve()));
}
