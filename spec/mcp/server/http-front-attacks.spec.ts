/**
 * The HTTP front `serveHttp` puts before both SDK lines' sessions, attacked over raw HTTP on loopback: foreign
 * `Origin` and `Host` on every method, unknown session ids on POST, GET and DELETE, the session cap raced by
 * concurrent `initialize` requests against a slow factory, oversized and deeply nested bodies with nothing on stderr.
 * SDK 1.x (`@modelcontextprotocol/sdk`) and SDK v2 (`@modelcontextprotocol/server`) must answer alike.
 */
import 'reflect-metadata';
import { request } from 'node:http';
import { McpServer as McpServer1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServer2 } from '@modelcontextprotocol/server';
import { Tools } from '../../../lib';
import { serveHttp, serveTools, type McpHttpEndpoint, type ServeHttpOptions } from '../../../lib/mcp';

interface Raw {
  status: number;
  body: string;
  sessionId: string | undefined;
}

/** A raw request with chosen headers (fetch does not let a caller set Host). */
function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname: target.hostname, port: target.port, path: target.pathname, method, headers: { Host: target.host, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let data = '';
      res.on('data', (chunk: Buffer) => (data += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data, sessionId: res.headers['mcp-session-id'] as string | undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

const LINES = [
  ['SDK 1.x', (tools: Tools) => { const server = new McpServer1({ name: 'front', version: '1' }); serveTools(server, tools); return server; }],
  ['SDK v2', (tools: Tools) => { const server = new McpServer2({ name: 'front', version: '1' }); serveTools(server, tools); return server; }],
] as const;

describe.each(LINES)('serveHttp on %s: the HTTP front under attack', (_line, build) => {
  let factoryCalls = 0;
  let factoryDelayMs = 0;
  const open: McpHttpEndpoint[] = [];
  const start = async (options: ServeHttpOptions = {}): Promise<McpHttpEndpoint> => {
    const tools = new Tools();
    const endpoint = await serveHttp(async () => {
      factoryCalls++;
      if (factoryDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, factoryDelayMs));
      return build(tools) as never;
    }, options);
    open.push(endpoint);
    return endpoint;
  };
  afterEach(async () => {
    factoryDelayMs = 0;
    await Promise.all(open.splice(0).map((endpoint) => endpoint.close()));
  });

  it.each([
    ['another site', 'https://evil.example'],
    ['a look-alike of localhost', 'http://localhost.evil.example'],
    ['a file page (opaque origin)', 'null'],
    ['a value that is no origin', 'not a url'],
  ])('answers 403 to %s as Origin on initialize, a session request, GET and DELETE; the session survives', async (_name, origin) => {
    const endpoint = await start();
    const opened = await raw(endpoint.url, 'POST', {}, INITIALIZE);
    expect(opened.status).toBe(200);
    const session = { 'mcp-session-id': opened.sessionId! };
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    for (const [method, headers, body] of [['POST', {}, INITIALIZE], ['POST', session, list], ['GET', session, undefined], ['DELETE', session, undefined]] as const) {
      const answer = await raw(endpoint.url, method, { ...headers, Origin: origin }, body);
      expect({ method, status: answer.status }).toEqual({ method, status: 403 });
      expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(/Origin/) } });
    }
    expect(endpoint.sessions).toBe(1);
    const port = new URL(endpoint.url).port;
    expect((await raw(endpoint.url, 'POST', { Origin: `http://localhost:${port}` }, INITIALIZE)).status).toBe(200);
    expect((await raw(endpoint.url, 'POST', { Origin: `http://127.0.0.1:9` }, INITIALIZE)).status).toBe(200);
  });

  it('serves the origins allowedOrigins names, and only those', async () => {
    const endpoint = await start({ allowedOrigins: ['app.example'] });
    expect((await raw(endpoint.url, 'POST', { Origin: 'https://app.example' }, INITIALIZE)).status).toBe(200);
    expect((await raw(endpoint.url, 'POST', { Origin: 'http://localhost' }, INITIALIZE)).status).toBe(403);
    expect((await raw(endpoint.url, 'POST', { Origin: 'https://app.example.evil' }, INITIALIZE)).status).toBe(403);
  });

  it('answers 403 to a foreign Host whatever the Origin', async () => {
    const endpoint = await start();
    const port = new URL(endpoint.url).port;
    for (const host of [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `localhost.evil:${port}`]) {
      expect((await raw(endpoint.url, 'POST', { Host: host, Origin: `http://localhost:${port}` }, INITIALIZE)).status).toBe(403);
      expect((await raw(endpoint.url, 'POST', { Host: host }, INITIALIZE)).status).toBe(403);
    }
  });

  it('answers 404 to POST, GET and DELETE naming a session that is not open, and to a session after its DELETE', async () => {
    const endpoint = await start();
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    for (const [method, body] of [['POST', list], ['GET', undefined], ['DELETE', undefined]] as const) {
      const answer = await raw(endpoint.url, method, { 'mcp-session-id': 'no-such-session' }, body);
      expect({ method, status: answer.status }).toEqual({ method, status: 404 });
      expect(JSON.parse(answer.body)).toMatchObject({ error: { message: expect.stringMatching(/Session not found/) } });
    }
    const opened = await raw(endpoint.url, 'POST', {}, INITIALIZE);
    expect((await raw(endpoint.url, 'DELETE', { 'mcp-session-id': opened.sessionId! })).status).toBe(200);
    expect((await raw(endpoint.url, 'POST', { 'mcp-session-id': opened.sessionId! }, list)).status).toBe(404);
    expect(endpoint.sessions).toBe(0);
  });

  it('holds the session cap against concurrent initialize requests while the factory is slow', async () => {
    const endpoint = await start({ maxSessions: 2 });
    factoryDelayMs = 30;
    const before = factoryCalls;
    const answers = await Promise.all(Array.from({ length: 20 }, () => raw(endpoint.url, 'POST', {}, INITIALIZE)));
    // The race: more initialize requests arrived than the cap before any session was listed.
    expect(factoryCalls - before).toBeGreaterThanOrEqual(2);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    const refused = answers.filter((answer) => answer.status === 503);
    expect(refused).toHaveLength(18);
    expect(JSON.parse(refused[0]!.body).error.message).toMatch(/at most 2 sessions .* end one \(DELETE\) or try again later/);
    expect(endpoint.sessions).toBe(2);
    expect(factoryCalls - before).toBe(2);
  });

  it('does not keep a session, nor count it against the cap, when the transport refuses its initialize', async () => {
    const endpoint = await start({ maxSessions: 1 });
    const bad = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const refused = await raw(endpoint.url, 'POST', { Accept: 'text/plain' }, bad);
    expect(refused.status).toBe(406);
    expect(endpoint.sessions).toBe(0);
    expect((await raw(endpoint.url, 'POST', {}, INITIALIZE)).status).toBe(200);
  });

  it('answers 413 to oversized bodies, declared or streamed, and 400 to deep or broken JSON, writing nothing to stderr', async () => {
    const endpoint = await start({ maxBodyBytes: 64 * 1024 });
    const written = jest.spyOn(process.stderr, 'write');
    try {
      const pad = 'x'.repeat(80 * 1024);
      const big = await raw(endpoint.url, 'POST', {}, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad } }));
      expect(big.status).toBe(413);
      expect(JSON.parse(big.body).error.message).toMatch(/over 65536 bytes/);
      expect((await raw(endpoint.url, 'POST', { 'Content-Length': String(10 * 1024 * 1024) }, '{')).status).toBe(413);
      expect((await raw(endpoint.url, 'POST', { 'Transfer-Encoding': 'chunked' }, pad)).status).toBe(413);
      expect((await raw(endpoint.url, 'POST', {}, '{"jsonrpc":')).status).toBe(400);
      const deep = (open: string, close: string) => `${open.repeat(5000)}1${close.repeat(5000)}`;
      for (const body of [deep('[', ']'), deep('{"a":', '}')]) {
        const answer = await raw(endpoint.url, 'POST', {}, body);
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.body).error.message).toMatch(/deeper than 512 levels/);
      }
      expect(written).not.toHaveBeenCalled();
    } finally {
      written.mockRestore();
    }
    expect((await raw(endpoint.url, 'POST', {}, INITIALIZE)).status).toBe(200);
  });

  it('refuses unusable limits with a clear error', async () => {
    await expect(start({ maxSessions: 0 })).rejects.toMatchObject({ code: 'MCP_HTTP_OPTIONS', message: expect.stringMatching(/maxSessions must be a whole number of at least 1 \(got 0\)/) });
    await expect(start({ maxBodyBytes: 1.5 })).rejects.toMatchObject({ code: 'MCP_HTTP_OPTIONS', message: expect.stringMatching(/maxBodyBytes/) });
    await expect(start({ idleTimeoutMs: -1 })).rejects.toMatchObject({ code: 'MCP_HTTP_OPTIONS', message: expect.stringMatching(/idleTimeoutMs/) });
  });
});
