/**
 * `McpClientTools` choosing and driving an SDK line: a client you connected yourself (v2 or 1.32), the v2 client over
 * stdio with its process options, headers merged into the v2 HTTP transport's own, an SDK 1.32 server that pages its
 * tool list, an expired 2025-11-25 session, and a server that is down on the 1.x line.
 */
import 'reflect-metadata';
import { join } from 'node:path';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server as V1Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '@modelcontextprotocol/server';
import { BillingTools } from '../../../examples/mcp-server';
import { Tools } from '../../../lib';
import { McpClientTools, serveHttp, serveTools, type McpHttpEndpoint } from '../../../lib/mcp';
import { recordingLogger } from './support';

const STDIO_SERVER = join(__dirname, '..', '..', '..', 'examples', 'mcp-stdio-server.cjs');

function v2Billing(): Promise<McpHttpEndpoint> {
  const tools = new Tools().register(new BillingTools());
  return serveHttp(() => {
    const server = new McpServer({ name: 'billing', version: '1.0.0' });
    serveTools(server, tools);
    return server;
  });
}

function v1Billing(): Promise<McpHttpEndpoint> {
  return serveHttp(() => {
    const server = new V1McpServer({ name: 'old', version: '1.0.0' });
    serveTools(server, new Tools().register(new BillingTools()));
    return server;
  });
}

describe('McpClientTools: the SDK line of a client you connected yourself', () => {
  let remote: McpHttpEndpoint;
  beforeAll(async () => (remote = await v2Billing()));
  afterAll(() => remote.close());

  it('drives an SDK v2 client you passed on its own line (2026-07-28), and leaves it open', async () => {
    const client = new V2Client({ name: 'mine', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new V2HttpTransport(new URL(remote.url)));
    const tools = new Tools();
    const mcp = await McpClientTools.connect(tools, { name: 'mine', client });
    try {
      expect(mcp.toolNames).toContain('mcp__mine__getOrder');
      expect(await tools.execute('mcp__mine__getOrder', { orderId: 'm-1' })).toMatchObject({ ok: true, result: { orderId: 'm-1', total: 42 } });
    } finally {
      await mcp.close();
    }
    expect(client.getProtocolEra()).toBe('modern');
    await client.close();
  });

  it('drives an SDK 1.32 client you passed on the 1.x line (2025-11-25)', async () => {
    const client = new V1Client({ name: 'mine', version: '1' });
    await client.connect(new V1HttpTransport(new URL(remote.url)));
    const tools = new Tools();
    const mcp = await McpClientTools.connect(tools, { name: 'old', client });
    try {
      expect(await tools.execute('mcp__old__getOrder', { orderId: 'm-2' })).toMatchObject({ ok: true, result: { orderId: 'm-2', total: 42 } });
    } finally {
      await mcp.close();
      await client.close();
    }
  });
});

describe('McpClientTools on SDK v2: transports', () => {
  it('starts a stdio server with the args, env, cwd and stderr given', async () => {
    const tools = new Tools();
    const mcp = await McpClientTools.connect(tools, { name: 'notes', sdk: 2, command: process.execPath, args: [STDIO_SERVER], env: { ...(process.env as Record<string, string>), NOTES_SPEC: '1' }, cwd: __dirname, stderr: 'ignore' });
    try {
      expect(mcp.toolNames).toContain('mcp__notes__list_notes');
      expect(await tools.execute('mcp__notes__list_notes', {})).toMatchObject({ ok: true });
    } finally {
      await mcp.close();
    }
  });

  it("sends `headers` on every request, merged over the transport's own requestInit headers", async () => {
    const remote = await v2Billing();
    const seen: Array<Record<string, unknown>> = [];
    remote.httpServer.on('request', (req: { headers: Record<string, unknown> }) => seen.push(req.headers));
    const tools = new Tools();
    const mcp = await McpClientTools.connect(tools, {
      name: 'billing',
      sdk: 2,
      url: remote.url,
      headers: { 'X-Token': 'from-headers', 'X-Shared': 'headers-win' },
      transportOptions: { requestInit: { headers: { 'X-Tenant': 'acme', 'X-Shared': 'transport' } } },
    });
    try {
      await tools.execute('mcp__billing__getOrder', { orderId: 'h-1' });
      expect(seen.length).toBeGreaterThan(0);
      for (const headers of seen) expect(headers).toMatchObject({ 'x-token': 'from-headers', 'x-tenant': 'acme', 'x-shared': 'headers-win' });
    } finally {
      await mcp.close();
      await remote.close();
    }
  });
});

describe('McpClientTools on 2025-11-25 servers', () => {
  it('on SDK 1.x, lists every page of a server that pages its tool list', async () => {
    const page = (name: string) => ({ name, description: `Tool ${name}.`, inputSchema: { type: 'object' as const, properties: {} } });
    const endpoint = await serveHttp(
      () => {
        const server = new V1Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });
        server.setRequestHandler(ListToolsRequestSchema, (request) => (request.params?.cursor === 'page-2' ? { tools: [page('second')] } : { tools: [page('first')], nextCursor: 'page-2' }));
        server.setRequestHandler(CallToolRequestSchema, (request) => ({ content: [{ type: 'text', text: `ran ${request.params.name}` }] }));
        return server as never;
      },
    );
    const tools = new Tools();
    const mcp = await McpClientTools.connect(tools, { name: 'paged', sdk: 1, url: endpoint.url });
    try {
      expect([...mcp.toolNames].sort()).toEqual(['mcp__paged__first', 'mcp__paged__second']);
      expect(await tools.execute('mcp__paged__second', {})).toMatchObject({ ok: true });
    } finally {
      await mcp.close();
      await endpoint.close();
    }
  });

  it('on SDK v2, a call after the server ended the session (404) opens a new session and runs', async () => {
    const endpoint = await v1Billing();
    const tools = new Tools();
    const mcp = await McpClientTools.connect(tools, { name: 'old', sdk: 2, url: endpoint.url });
    try {
      const sessionId = (mcp.client as V2Client).transport?.sessionId;
      expect(sessionId).toEqual(expect.any(String));
      const ended = await fetch(endpoint.url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId!, 'mcp-protocol-version': '2025-11-25' } });
      expect(ended.status).toBe(200);
      expect(await tools.execute('mcp__old__getOrder', { orderId: 'e-1' })).toMatchObject({ ok: true, result: { orderId: 'e-1', total: 42 } });
      expect((mcp.client as V2Client).transport?.sessionId).not.toBe(sessionId);
    } finally {
      await mcp.close();
      await endpoint.close();
    }
  });

  it('on SDK 1.x, a call to a server that went down before it is reported as not connected, never as possibly run', async () => {
    const down = await v1Billing();
    const tools = new Tools();
    const mcp = await McpClientTools.connect(tools, { name: 'down', sdk: 1, url: down.url, reconnect: { maxAttempts: 1, delayMs: 1 }, logger: recordingLogger() });
    await down.close();
    try {
      const failed = await tools.execute('mcp__down__getOrder', { orderId: 'x' });
      expect(failed.ok).toBe(false);
      expect(failed.ok ? '' : failed.error).toBe("MCP server 'down' is not connected and could not be reconnected; try again later or use another tool.");
    } finally {
      await mcp.close();
    }
  });
});
