/**
 * `McpClientTools` on SDK v2 and the SDK's response cache for `tools/list` (MCP 2026-07-28: a listing carries
 * `ttlMs`/`cacheScope`): within the ttl a listing is served from the cache (no `tools/list` reaches the server); a list
 * change notification, the ttl running out, or a ttl of 0 make the next listing reach the server. Counted at our SDK
 * v2 `serveHttp` endpoint (the `Mcp-Method` header every 2026-07-28 request carries). The clock the cache reads is a
 * spy on `Date.now` that stands still unless the spec moves it, installed before the client exists (the cache takes
 * `Date.now` when it is made).
 */
import 'reflect-metadata';
import type { IncomingMessage } from 'node:http';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { BillingTools } from '../../../examples/mcp-server';
import { Action, Tools } from '../../../lib';
import { McpClientTools, serveHttp, serveTools, type McpHttpEndpoint } from '../../../lib/mcp';
import { until } from './support';

class Extra {
  @Action('Say hello.')
  hello(): string {
    return 'hi';
  }
}

const TTL_MS = 60_000;

interface Served {
  endpoint: McpHttpEndpoint;
  tools: Tools;
  /** How many `tools/list` requests reached the endpoint. */
  listings(): number;
}

/** Our SDK v2 endpoint of a billing registry; `ttlMs` undefined sends no cache hints (the SDK's default, 0). */
async function served(options: { ttlMs?: number; announce: boolean }): Promise<Served> {
  const tools = new Tools().register(new BillingTools());
  const hints = options.ttlMs === undefined ? {} : { cacheHints: { 'tools/list': { ttlMs: options.ttlMs, cacheScope: 'private' as const } } };
  const endpoint = await serveHttp(
    () => {
      const server = new McpServer({ name: 'billing', version: '1.0.0' }, hints);
      serveTools(server, tools);
      return server;
    },
    options.announce ? { registries: [tools] } : {},
  );
  let count = 0;
  endpoint.httpServer.on('request', (req: IncomingMessage) => {
    if (req.headers['mcp-method'] === 'tools/list') count++;
  });
  return { endpoint, tools, listings: () => count };
}

describe('McpClientTools on SDK v2: the tools/list cache', () => {
  let clock = 0;
  const start = Date.now();
  let server: Served | undefined;
  let mcp: McpClientTools | undefined;
  beforeEach(() => {
    clock = 0;
    jest.spyOn(Date, 'now').mockImplementation(() => start + clock);
  });
  afterEach(async () => {
    await mcp?.close();
    await server?.endpoint.close();
    mcp = undefined;
    server = undefined;
    jest.restoreAllMocks();
  });
  const connect = async (tools = new Tools()) => (mcp = await McpClientTools.connect(tools, { name: 'billing', url: server!.endpoint.url, sdk: 2 }));

  it('serves listings within the ttl from the cache: no second tools/list reaches the server', async () => {
    server = await served({ ttlMs: TTL_MS, announce: true });
    const client = await connect();
    expect((client.client as V2Client).getProtocolEra()).toBe('modern');
    expect(server.listings()).toBe(1);
    expect(client.toolNames).toEqual(['mcp__billing__getOrder', 'mcp__billing__refund']);
    clock = TTL_MS - 1;
    await client.refresh();
    await client.refresh();
    expect(server.listings()).toBe(1);
    expect(client.toolNames).toEqual(['mcp__billing__getOrder', 'mcp__billing__refund']);
  });

  it('lists anew after a list change within the ttl, and caches that listing', async () => {
    server = await served({ ttlMs: TTL_MS, announce: true });
    const client = await connect();
    expect(server.listings()).toBe(1);
    server.tools.register(new Extra());
    await until(() => client.toolNames.includes('mcp__billing__hello'));
    expect(server.listings()).toBe(2);
    await client.refresh();
    expect(server.listings()).toBe(2);
    expect(client.toolNames).toEqual(['mcp__billing__getOrder', 'mcp__billing__refund', 'mcp__billing__hello']);
  });

  it('lists anew once the ttl ran out: a change the server did not announce shows then, not before', async () => {
    server = await served({ ttlMs: TTL_MS, announce: false });
    const client = await connect();
    server.tools.register(new Extra());
    clock = TTL_MS - 1;
    await client.refresh();
    expect(server.listings()).toBe(1);
    expect(client.toolNames).not.toContain('mcp__billing__hello');
    clock = TTL_MS;
    const change = await client.refresh();
    expect(server.listings()).toBe(2);
    expect(change.added).toEqual(['mcp__billing__hello']);
    await client.refresh();
    expect(server.listings()).toBe(2);
  });

  it('with no cache hints (ttl 0) every listing reaches the server', async () => {
    server = await served({ announce: false });
    const client = await connect();
    await client.refresh();
    await client.refresh();
    expect(server.listings()).toBe(3);
  });

  it('a reconnection lists anew: the cache lives with one connection', async () => {
    server = await served({ ttlMs: TTL_MS, announce: false });
    const client = await connect();
    await client.reconnect();
    expect(server.listings()).toBe(2);
    await client.refresh();
    expect(server.listings()).toBe(2);
  });
});
