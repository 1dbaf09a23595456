/**
 * `tools/list` of a served registry lists the same tools in the same order whatever the server's history: sorted by
 * name (UTF-16 code units), native tools among them. Each serving path gets the same two histories: a registry built
 * in another order, and one whose group was switched off and on and whose tool was removed and registered again.
 * Also: the `cacheHints` of the host's SDK v2 `McpServer` reach a 2026-07-28 client's listing.
 */
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as V1Server } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer as V2Server, type McpServerOptions } from '@modelcontextprotocol/server';
import { Type } from 'typebox';
import { Tools } from '../../../lib';
import { serveHttp, serveTools, type McpHttpEndpoint } from '../../../lib/mcp';

const quiet = { warn: () => undefined, error: () => undefined };
const EXPECTED = ['a', 'b', 'c', 'reset_tools'];

function addTool(tools: Tools, name: string): void {
  tools.action({ name, description: `Tool ${name}.`, params: Type.Object({}), effects: [], ...(name === 'a' ? { group: 'extra' } : {}) }, () => name);
}

/** The tools `a` (in the group `extra`, on), `b` and `c`, registered in `order`. */
function registry(order: string[]): Tools {
  const tools = new Tools({ logger: quiet });
  for (const name of order) addTool(tools, name);
  return tools.createGroup('extra', 'Extra tools.', { active: true });
}

/** Switches `extra` off and on, and removes `b` and registers it again. */
function rewrite(tools: Tools): void {
  tools.setGroupsActive({ extra: false });
  tools.setGroupsActive({ extra: true });
  tools.unregister('b');
  addTool(tools, 'b');
}

const pong = () => ({ content: [{ type: 'text' as const, text: 'pong' }] });

/** An SDK v2 server serving `tools`, with the native tools `native` before them. */
function v2Server(tools: Tools, options?: McpServerOptions, native: string[] = []): V2Server {
  const server = new V2Server({ name: 'order', version: '1.0.0' }, options);
  for (const name of native) server.registerTool(name, { description: 'Native.' }, pong);
  serveTools(server, tools);
  return server;
}

type Names = () => Promise<string[]>;

/** A session (InMemoryTransport) on an SDK 1.x server serving `tools`, with the native tools `native` before them. */
async function v1Session(tools: Tools, native: string[] = []): Promise<{ names: Names; close: () => Promise<void> }> {
  const server = new V1Server({ name: 'order', version: '1.0.0' });
  for (const name of native) server.registerTool(name, { description: 'Native.' }, pong);
  serveTools(server, tools);
  const client = new V1Client({ name: 'spec', version: '1' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  return { names: async () => (await client.listTools()).tools.map((t) => t.name), close: () => client.close() };
}

async function v2Endpoint(tools: Tools, options?: McpServerOptions, native: string[] = []): Promise<McpHttpEndpoint> {
  return serveHttp(() => v2Server(tools, options, native), { registries: [tools] });
}

/** A 2025-11-25 session (SDK 1.32 client) on an SDK v2 server. */
async function legacySession(endpoint: McpHttpEndpoint): Promise<{ names: Names; close: () => Promise<void> }> {
  const client = new V1Client({ name: 'legacy', version: '1' });
  await client.connect(new V1HttpTransport(new URL(endpoint.url)));
  return { names: async () => (await client.listTools()).tools.map((t) => t.name), close: () => client.close() };
}

/** A 2026-07-28 client: each request is stateless, served by a server the factory builds for it. */
async function modernClient(endpoint: McpHttpEndpoint): Promise<V2Client> {
  const client = new V2Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new V2HttpTransport(new URL(endpoint.url)));
  expect(client.getProtocolEra()).toBe('modern');
  return client;
}

async function modernNames(endpoint: McpHttpEndpoint): Promise<string[]> {
  const client = await modernClient(endpoint);
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe('tools/list order of a served registry', () => {
  describe('SDK 1.x server, session', () => {
    it('lists a registry built in another order sorted by name', async () => {
      const session = await v1Session(registry(['c', 'a', 'b']));
      expect(await session.names()).toEqual(EXPECTED);
      await session.close();
    });

    it('lists the same order after a group switch-off/on and a tool removed and registered again as a fresh server does', async () => {
      const tools = registry(['a', 'b', 'c']);
      const session = await v1Session(tools);
      expect(await session.names()).toEqual(EXPECTED);
      tools.setGroupsActive({ extra: false });
      expect(await session.names()).toEqual(['b', 'c', 'reset_tools']);
      rewrite(tools);
      expect(await session.names()).toEqual(EXPECTED);
      const fresh = await v1Session(tools);
      expect(await fresh.names()).toEqual(EXPECTED);
      await Promise.all([session.close(), fresh.close()]);
    });
  });

  describe('SDK v2 server over Streamable HTTP', () => {
    it('lists a registry built in another order sorted by name, on a 2025-11-25 session and to a 2026-07-28 client', async () => {
      const endpoint = await v2Endpoint(registry(['c', 'a', 'b']));
      try {
        const session = await legacySession(endpoint);
        expect(await session.names()).toEqual(EXPECTED);
        await session.close();
        expect(await modernNames(endpoint)).toEqual(EXPECTED);
      } finally {
        await endpoint.close();
      }
    });

    it('lists the same order on a session and to a 2026-07-28 client after a group switch-off/on and a tool registered again', async () => {
      const tools = registry(['a', 'b', 'c']);
      const endpoint = await v2Endpoint(tools);
      try {
        const session = await legacySession(endpoint);
        expect(await session.names()).toEqual(EXPECTED);
        tools.setGroupsActive({ extra: false });
        expect(await session.names()).toEqual(['b', 'c', 'reset_tools']);
        tools.setGroupsActive({ extra: true });
        expect(await session.names()).toEqual(EXPECTED);
        rewrite(tools);
        expect(await session.names()).toEqual(EXPECTED);
        expect(await modernNames(endpoint)).toEqual(EXPECTED);
        await session.close();
      } finally {
        await endpoint.close();
      }
    });
  });

  it('compares UTF-16 code units, not a locale: digits, upper case, `_`, lower case; "10" before "9"; native tools among them', async () => {
    const tools = new Tools({ logger: quiet });
    for (const name of ['b', 'a_1', '9', 'B', 'a-1', '10']) tools.action({ name, description: `Tool ${name}.`, params: Type.Object({}), effects: [] }, () => name);
    const sorted = ['10', '9', 'B', '_x', 'a-1', 'a_1', 'b', 'ping'];
    const session = await v1Session(tools, ['ping', '_x']);
    expect(await session.names()).toEqual(sorted);
    await session.close();
    const endpoint = await v2Endpoint(tools, undefined, ['ping', '_x']);
    try {
      expect(await modernNames(endpoint)).toEqual(sorted);
    } finally {
      await endpoint.close();
    }
  });
});

describe('tools/list cache hints (2026-07-28)', () => {
  it('gives a 2026-07-28 client the ttlMs and cacheScope of the McpServer\'s cacheHints, with the listing still sorted', async () => {
    const endpoint = await v2Endpoint(registry(['c', 'a', 'b']), { cacheHints: { 'tools/list': { ttlMs: 60_000, cacheScope: 'public' } } });
    try {
      const client = await modernClient(endpoint);
      const listing = await client.listTools();
      expect([listing.tools.map((t) => t.name), listing.ttlMs, listing.cacheScope]).toEqual([EXPECTED, 60_000, 'public']);
      await client.close();
    } finally {
      await endpoint.close();
    }
  });

  it('without cacheHints a 2026-07-28 listing carries the revision\'s defaults (not cached, private) and a 2025-11-25 one no hint', async () => {
    const endpoint = await v2Endpoint(registry(['a', 'b', 'c']));
    try {
      const client = await modernClient(endpoint);
      const listing = await client.listTools();
      expect([listing.ttlMs, listing.cacheScope]).toEqual([0, 'private']);
      await client.close();
      const legacy = new V1Client({ name: 'legacy', version: '1' });
      await legacy.connect(new V1HttpTransport(new URL(endpoint.url)));
      const old = await legacy.listTools();
      expect(Object.keys(old).filter((key) => key === 'ttlMs' || key === 'cacheScope')).toEqual([]);
      await legacy.close();
    } finally {
      await endpoint.close();
    }
  });
});
