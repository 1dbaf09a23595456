/**
 * The served registry over real transports, with the official SDK client on the other side: Streamable HTTP on
 * loopback (host-header validation included) and stdio with the example as a child process.
 */
import 'reflect-metadata';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { BillingTools, createServer } from '../../../examples/mcp-server';
import { McpServerError, serveHttp, type McpHttpEndpoint } from '../../../lib/mcp';

const ROOT = join(__dirname, '../../..');
const text = (result: unknown) => ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? '');

/** A raw POST with a chosen Host header (fetch does not let a caller set Host). */
function post(url: string, host: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { Host: host, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let data = '';
        res.on('data', (chunk: Buffer) => (data += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

describe('serveHttp: Streamable HTTP on loopback', () => {
  let endpoint: McpHttpEndpoint;
  let billing: BillingTools;
  beforeAll(async () => {
    billing = new BillingTools();
    endpoint = await serveHttp(() => createServer(billing));
  });
  afterAll(() => endpoint.close());

  it('serves the registry and the native tool to the SDK client, approval through elicitation included', async () => {
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'http-test', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept' }));
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['getOrder', 'ping', 'refund']);
    expect(await client.callTool({ name: 'getOrder', arguments: { orderId: 'o-1' } })).toMatchObject({ structuredContent: { orderId: 'o-1', total: 42 }, isError: false });
    expect(text(await client.callTool({ name: 'ping', arguments: { message: 'there' } }))).toBe('pong there');
    expect(text(await client.callTool({ name: 'refund', arguments: { orderId: 'o-1', amount: 5 } }))).toBe('Refunded 5 for order o-1.');
    expect(billing.refunds).toEqual([{ orderId: 'o-1', amount: 5 }]);
    await client.close();
  });

  it('rejects a request whose Host is not a loopback name (DNS rebinding) and accepts loopback names', async () => {
    const port = new URL(endpoint.url).port;
    for (const host of ['evil.example.com', `evil.example.com:${port}`, `127.0.0.1.evil.example.com:${port}`, 'localhost.evil:80']) {
      expect((await post(endpoint.url, host, INITIALIZE)).status).toBe(403);
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      expect((await post(endpoint.url, host, INITIALIZE)).status).toBe(200);
    }
  });

  it('answers requests outside a session with JSON-RPC errors', async () => {
    const host = new URL(endpoint.url).host;
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    expect(await post(endpoint.url, host, list)).toMatchObject({ status: 400 });
    expect(await post(endpoint.url, host, list, { 'mcp-session-id': 'no-such-session' })).toMatchObject({ status: 404 });
    const get = await fetch(endpoint.url, { headers: { Accept: 'text/event-stream' } });
    expect(get.status).toBe(400);
  });

  it('refuses a non-loopback bind without allowedHosts, and validates the hosts given', async () => {
    await expect(serveHttp(() => createServer(), { host: '0.0.0.0' })).rejects.toThrow(McpServerError);
    await expect(serveHttp(() => createServer(), { host: '0.0.0.0' })).rejects.toMatchObject({ code: 'MCP_HOST_VALIDATION' });
    const open = await serveHttp(() => createServer(), { host: '0.0.0.0', allowedHosts: ['mcp.internal'], path: '/tools' });
    try {
      const port = new URL(open.url).port;
      const url = `http://127.0.0.1:${port}/tools`;
      expect((await post(url, `mcp.internal:${port}`, INITIALIZE)).status).toBe(200);
      expect((await post(url, `localhost:${port}`, INITIALIZE)).status).toBe(403);
    } finally {
      await open.close();
    }
  });
});

describe('serveStdio: the example as a child process', () => {
  it('serves the registry and the native tool over stdin/stdout', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['-r', join(__dirname, 'support/ts-register.cjs'), join(ROOT, 'examples/mcp-server.ts')],
      cwd: ROOT,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['getOrder', 'ping', 'refund']);
      expect(await client.callTool({ name: 'getOrder', arguments: { orderId: 'o-9' } })).toMatchObject({ structuredContent: { orderId: 'o-9', total: 42 } });
      const refused = await client.callTool({ name: 'refund', arguments: { orderId: 'o-9', amount: 1 } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain('does not support elicitation');
    } finally {
      await client.close();
    }
  }, 120_000); // the child transpiles the sources as it starts: long on a loaded machine
});
