/**
 * `McpClientTools` on the SDK v2 client (`sdk: 2`, version negotiation `auto`) against real servers of both
 * revisions: an SDK v2 server speaking 2026-07-28 (our `serveHttp`), an SDK 1.32 server speaking 2025-11-25, and the
 * proxy chain (remote server -> our client -> our server -> an SDK client) on each revision.
 */
import 'reflect-metadata';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { BillingTools } from '../../../examples/mcp-server';
import { Action, ActionResult, Tools } from '../../../lib';
import { McpClientTools, serveHttp, serveTools, type McpHttpEndpoint } from '../../../lib/mcp';
import { until } from './support';

class Extra {
  @Action('Say hello.')
  hello(): string {
    return 'hi';
  }
}

const text = (result: unknown) => ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? '');

/** Our SDK v2 endpoint of a billing registry (both eras). */
async function billingEndpoint(tools = new Tools().register(new BillingTools())): Promise<McpHttpEndpoint> {
  return serveHttp(
    () => {
      const server = new McpServer({ name: 'billing', version: '1.0.0' });
      serveTools(server, tools);
      return server;
    },
    { registries: [tools] },
  );
}

describe('McpClientTools on SDK v2', () => {
  let remote: McpHttpEndpoint;
  let remoteTools: Tools;
  beforeAll(async () => {
    remoteTools = new Tools().register(new BillingTools());
    remote = await billingEndpoint(remoteTools);
  });
  afterAll(() => remote.close());

  it('reaches a v2 server on 2026-07-28, lists and calls, and approval comes to its elicitation handler', async () => {
    const tools = new Tools();
    const asked: string[] = [];
    const mcp = await McpClientTools.connect(tools, {
      name: 'billing',
      url: remote.url,
      sdk: 2,
      clientOptions: { capabilities: { elicitation: { form: {} } } },
      setupSdk2Client: (client) =>
        client.setRequestHandler('elicitation/create', (request) => {
          asked.push((request.params as { message: string }).message);
          return { action: 'accept' };
        }),
    });
    try {
      expect((mcp.client as V2Client).getProtocolEra()).toBe('modern');
      expect(mcp.toolNames).toEqual(['mcp__billing__getOrder', 'mcp__billing__refund']);
      expect(await tools.execute('mcp__billing__getOrder', { orderId: 'c-1' })).toMatchObject({ ok: true, result: { orderId: 'c-1', total: 42 } });
      expect(await tools.execute('mcp__billing__refund', { orderId: 'c-2', amount: 2 }, { approved: true })).toEqual(ActionResult.success('Refunded 2 for order c-2.'));
      expect(asked).toHaveLength(1);
    } finally {
      await mcp.close();
    }
  });

  it('hears of list changes on 2026-07-28 through subscriptions/listen', async () => {
    const tools = new Tools();
    const mcp = await McpClientTools.connect(tools, { name: 'billing', url: remote.url, sdk: 2 });
    try {
      remoteTools.register(new Extra());
      await until(() => mcp.toolNames.includes('mcp__billing__hello'));
      expect(await tools.execute('mcp__billing__hello', {})).toEqual(ActionResult.success('hi'));
    } finally {
      await mcp.close();
    }
  });

  it('reaches an SDK 1.32 server on 2025-11-25 (the negotiation falls back)', async () => {
    const legacy = await serveHttp(() => {
      const server = new V1McpServer({ name: 'old', version: '1.0.0' });
      serveTools(server, new Tools().register(new BillingTools()));
      return server;
    });
    const tools = new Tools();
    const mcp = await McpClientTools.connect(tools, { name: 'old', url: legacy.url, sdk: 2 });
    try {
      expect((mcp.client as V2Client).getProtocolEra()).toBe('legacy');
      expect(await tools.execute('mcp__old__getOrder', { orderId: 'c-3' })).toMatchObject({ ok: true, result: { orderId: 'c-3', total: 42 } });
    } finally {
      await mcp.close();
      await legacy.close();
    }
  });

  it('a call to a server that is down was never sent: the model is told it did not run', async () => {
    const down = await billingEndpoint();
    const tools = new Tools();
    const mcp = await McpClientTools.connect(tools, { name: 'down', url: down.url, sdk: 2, reconnect: { maxAttempts: 1, delayMs: 1 } });
    await down.close();
    try {
      const failed = await tools.execute('mcp__down__getOrder', { orderId: 'x' });
      expect(failed.ok).toBe(false);
      expect(failed.ok ? '' : failed.error).toMatch(/^MCP server 'down' is not connected and could not be reconnected/);
    } finally {
      await mcp.close();
    }
  });

  describe.each(['modern', 'legacy'] as const)('the proxy chain on %s: remote server -> our client -> our server -> an SDK client', (era) => {
    it('relays listing and calls end to end', async () => {
      const proxyTools = new Tools();
      const upstream = await McpClientTools.connect(proxyTools, { name: 'up', url: remote.url, sdk: 2 });
      const proxy = await billingEndpoint(proxyTools);
      try {
        const client = era === 'modern' ? new V2Client({ name: 'end', version: '1' }, { versionNegotiation: { mode: 'auto' } }) : new V1Client({ name: 'end', version: '1' });
        if (client instanceof V2Client) await client.connect(new V2HttpTransport(new URL(proxy.url)));
        else await client.connect(new V1HttpTransport(new URL(proxy.url)));
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['mcp__up__getOrder', 'mcp__up__refund']));
        expect(text(await client.callTool({ name: 'mcp__up__getOrder', arguments: { orderId: 'p-1' } }))).toContain('p-1');
        await client.close();
      } finally {
        await proxy.close();
        await upstream.close();
      }
    });
  });
});

describe('a remote error result of a tool with an outputSchema', () => {
  it.each([1, 2] as const)('is the server error text for the model (sdk: %s)', async (sdk) => {
    const remote = await serveHttp(() => {
      const server = new V1McpServer({ name: 'strict', version: '1.0.0' });
      server.registerTool('weather', { description: 'Weather.', inputSchema: { city: z.string() }, outputSchema: { celsius: z.number() } }, () => ({
        content: [{ type: 'text', text: 'the weather service is down' }],
        structuredContent: { reason: 'down' },
        isError: true,
      }));
      return server;
    });
    const tools = new Tools();
    const mcp = await McpClientTools.connect(tools, { name: 'strict', url: remote.url, sdk });
    try {
      const failed = await tools.execute('mcp__strict__weather', { city: 'Oslo' });
      expect(failed).toMatchObject({ ok: false });
      expect(failed.ok ? '' : failed.error).toContain('the weather service is down');
      expect(failed.ok ? '' : failed.error).not.toMatch(/Structured content|-32602/);
    } finally {
      await mcp.close();
      await remote.close();
    }
  });
});
