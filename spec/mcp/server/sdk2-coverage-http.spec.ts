/**
 * `serveHttp` on SDK v2 (and on SDK 1.32) at its edges: refused options, chosen hosts and origins, idle sessions,
 * `DELETE` of a session, chunked bodies over the limit, a failing server factory, a port already in use. Real SDK
 * servers and raw HTTP on loopback.
 */
import 'reflect-metadata';
import { request } from 'node:http';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer } from '@modelcontextprotocol/server';
import { BillingTools } from '../../../examples/mcp-server';
import { Tools } from '../../../lib';
import { serveHttp, serveTools, type McpHttpEndpoint, type ServeHttpOptions } from '../../../lib/mcp';
import { until } from '../client/support';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request with chosen headers; `chunks` are written one by one (chunked transfer, no Content-Length). */
function raw(url: string, method: string, headers: Record<string, string>, body?: string | string[]): Promise<Raw> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname: target.hostname, port: target.port, path: target.pathname, method, headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let data = '';
      res.on('data', (chunk: Buffer) => (data += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
    });
    req.on('error', reject);
    if (Array.isArray(body)) {
      for (const chunk of body) req.write(chunk);
      req.end();
    } else req.end(body);
  });
}

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

function billingServer(): McpServer {
  const server = new McpServer({ name: 'billing', version: '1.0.0' });
  serveTools(server, new Tools().register(new BillingTools()));
  return server;
}

const serve = (options: ServeHttpOptions = {}) => serveHttp(billingServer, options);

describe('serveHttp on SDK v2: options', () => {
  it.each([
    [{ idleTimeoutMs: -1 }, /idleTimeoutMs must be a number of milliseconds of at least 0 \(got -1\)/],
    [{ idleTimeoutMs: Number.NaN }, /idleTimeoutMs .* \(got NaN\)/],
    [{ maxSessions: 0 }, /maxSessions must be a whole number of at least 1 \(got 0\)/],
    [{ maxSessions: 1.5 }, /maxSessions .* \(got 1.5\)/],
    [{ maxBodyBytes: 0 }, /maxBodyBytes must be a whole number of bytes of at least 1 \(got 0\)/],
  ] as Array<[ServeHttpOptions, RegExp]>)('refuses %j with a clear error', async (options, message) => {
    await expect(serve(options)).rejects.toMatchObject({ code: 'MCP_HTTP_OPTIONS', message: expect.stringMatching(message) });
  });

  it('accepts only the allowedHosts and allowedOrigins given', async () => {
    const endpoint = await serve({ allowedHosts: ['mcp.example'], allowedOrigins: ['app.example'] });
    try {
      const port = new URL(endpoint.url).port;
      expect((await raw(endpoint.url, 'POST', { Host: `mcp.example:${port}`, Origin: 'https://app.example' }, INITIALIZE)).status).toBe(200);
      expect((await raw(endpoint.url, 'POST', { Host: `localhost:${port}` }, INITIALIZE)).status).toBe(403);
      expect((await raw(endpoint.url, 'POST', { Host: `mcp.example:${port}`, Origin: 'https://evil.example' }, INITIALIZE)).status).toBe(403);
    } finally {
      await endpoint.close();
    }
  });

  it('takes the allowedHosts as allowed origins when no allowedOrigins are given', async () => {
    const endpoint = await serve({ allowedHosts: ['mcp.example'] });
    try {
      const port = new URL(endpoint.url).port;
      expect((await raw(endpoint.url, 'POST', { Host: `mcp.example:${port}`, Origin: `http://mcp.example:${port}` }, INITIALIZE)).status).toBe(200);
      expect((await raw(endpoint.url, 'POST', { Host: `mcp.example:${port}`, Origin: `http://localhost:${port}` }, INITIALIZE)).status).toBe(403);
    } finally {
      await endpoint.close();
    }
  });
});

describe('serveHttp on SDK v2: requests and sessions', () => {
  let endpoint: McpHttpEndpoint;
  beforeAll(async () => (endpoint = await serve({ maxBodyBytes: 1024 })));
  afterAll(() => endpoint.close());

  it('answers 404 with the endpoint path for another path', async () => {
    const answer = await raw(endpoint.url.replace(/\/mcp$/, '/other'), 'POST', {}, INITIALIZE);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatch(/the MCP endpoint is \/mcp/);
  });

  it('answers 413 to a chunked body that grows over maxBodyBytes (no Content-Length to refuse it early)', async () => {
    const answer = await raw(endpoint.url, 'POST', { 'Transfer-Encoding': 'chunked' }, ['{"a":"', 'x'.repeat(800), 'y'.repeat(800), '"}']);
    expect(answer.status).toBe(413);
    expect(answer.body).toMatch(/over 1024 bytes/);
  });

  it('answers 400 to a 2025-11-25 request without a session that is not initialize', async () => {
    const answer = await raw(endpoint.url, 'POST', { 'MCP-Protocol-Version': '2025-11-25' }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatch(/send initialize first/);
  });

  it('answers 405 to a GET without a session id (2026-07-28 has no GET stream) and opens no session', async () => {
    const answer = await raw(endpoint.url, 'GET', {});
    expect(answer.status).toBe(405);
    expect(answer.body).toMatch(/Method not allowed/);
    expect(endpoint.sessions).toBe(0);
  });

  it('ends a session on DELETE: its id is then unknown (404)', async () => {
    const opened = await raw(endpoint.url, 'POST', {}, INITIALIZE);
    const id = String(opened.headers['mcp-session-id']);
    expect(endpoint.sessions).toBe(1);
    expect((await raw(endpoint.url, 'DELETE', { 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-11-25' })).status).toBe(200);
    await until(() => endpoint.sessions === 0);
    expect((await raw(endpoint.url, 'DELETE', { 'Mcp-Session-Id': id })).status).toBe(404);
  });
});

describe('serveHttp on SDK v2: idle sessions', () => {
  it('closes a session idle for idleTimeoutMs', async () => {
    const endpoint = await serve({ idleTimeoutMs: 20 });
    try {
      await raw(endpoint.url, 'POST', {}, INITIALIZE);
      await until(() => endpoint.sessions === 0);
      expect(endpoint.sessions).toBe(0);
    } finally {
      await endpoint.close();
    }
  });

  it('keeps sessions open with idleTimeoutMs 0 until they end or the endpoint closes', async () => {
    const endpoint = await serve({ idleTimeoutMs: 0, retryIntervalMs: 1500 });
    try {
      const opened = await raw(endpoint.url, 'POST', {}, INITIALIZE);
      expect(opened.status).toBe(200);
      expect(endpoint.sessions).toBe(1);
    } finally {
      await endpoint.close();
    }
    expect(endpoint.sessions).toBe(0);
  });
});

describe('serveHttp: failures', () => {
  it('answers 500 Internal error, without details, when the server factory fails for a session', async () => {
    let calls = 0;
    const endpoint = await serveHttp(() => {
      if (++calls > 1) throw new Error('secret database password');
      return billingServer();
    });
    try {
      const answer = await raw(endpoint.url, 'POST', {}, INITIALIZE);
      expect(answer.status).toBe(500);
      expect(answer.body).toMatch(/Internal error/);
      expect(answer.body).not.toMatch(/secret/);
      expect(endpoint.sessions).toBe(0);
    } finally {
      await endpoint.close();
    }
  });

  it.each([
    ['SDK v2', billingServer],
    ['SDK 1.32', () => new V1McpServer({ name: 'old', version: '1.0.0' })],
  ] as Array<[string, () => McpServer]>)('on %s, rejects when the port is already in use', async (_, factory) => {
    const first = await serveHttp(factory);
    try {
      const port = Number(new URL(first.url).port);
      await expect(serveHttp(factory, { port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await first.close();
    }
  });
});
