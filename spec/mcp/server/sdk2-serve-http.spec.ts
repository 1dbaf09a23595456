/**
 * The served registry on SDK v2 (`@modelcontextprotocol/server` 2.4) over Streamable HTTP, with real clients of
 * both protocol eras on the same endpoint: the SDK v2 `Client` negotiating 2026-07-28 (`mode: 'auto'`) and the SDK
 * 1.32 `Client` speaking 2025-11-25. Approval runs through `input_required` (modern) and elicitation (legacy).
 */
import 'reflect-metadata';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '@modelcontextprotocol/server';
import { BillingTools } from '../../../examples/mcp-server';
import { Tools } from '../../../lib';
import { serveHttp, serveTools, type McpHttpEndpoint } from '../../../lib/mcp';

const text = (result: unknown) => ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? '');

function billingServer(billing: BillingTools, tools = new Tools().register(billing)): McpServer {
  const server = new McpServer({ name: 'billing', version: '1.0.0' });
  serveTools(server, tools);
  return server;
}

/** An SDK v2 client on 2026-07-28 that answers every elicitation with `action`, recording the questions. */
async function modernClient(url: string, action: 'accept' | 'decline' = 'accept', asked: string[] = []): Promise<V2Client> {
  const client = new V2Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', (request) => {
    asked.push((request.params as { message: string }).message);
    return { action };
  });
  await client.connect(new V2HttpTransport(new URL(url)));
  return client;
}

/** An SDK 1.32 client (2025-11-25) that answers every elicitation with `action`. */
async function legacyClient(url: string, action: 'accept' | 'decline' = 'accept', asked: string[] = []): Promise<V1Client> {
  const client = new V1Client({ name: 'legacy', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return { action };
  });
  await client.connect(new V1HttpTransport(new URL(url)));
  return client;
}

describe('serveHttp on SDK v2: one endpoint, both protocol eras', () => {
  let endpoint: McpHttpEndpoint;
  let billing: BillingTools;
  beforeAll(async () => {
    billing = new BillingTools();
    const tools = new Tools().register(billing);
    endpoint = await serveHttp(() => billingServer(billing, tools), { registries: [tools] });
  });
  afterAll(() => endpoint.close());

  it('serves a 2026-07-28 client statelessly: listing, a call, and approval through input_required', async () => {
    const asked: string[] = [];
    const client = await modernClient(endpoint.url, 'accept', asked);
    expect(client.getProtocolEra()).toBe('modern');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['getOrder', 'refund']);
    expect(await client.callTool({ name: 'getOrder', arguments: { orderId: 'o-1' } })).toMatchObject({ structuredContent: { orderId: 'o-1', total: 42 }, isError: false });
    expect(text(await client.callTool({ name: 'refund', arguments: { orderId: 'o-2', amount: 5 } }))).toBe('Refunded 5 for order o-2.');
    expect(asked).toEqual([expect.stringContaining(`- "orderId": "o-2"\n- "amount": 5`)]);
    expect(billing.refunds).toContainEqual({ orderId: 'o-2', amount: 5 });
    expect(endpoint.sessions).toBe(0);
    await client.close();
  });

  it('a declined approval on 2026-07-28 runs nothing', async () => {
    const client = await modernClient(endpoint.url, 'decline');
    const before = billing.refunds.length;
    const result = await client.callTool({ name: 'refund', arguments: { orderId: 'o-3', amount: 7 } });
    expect(result.isError).toBe(true);
    expect(billing.refunds).toHaveLength(before);
    await client.close();
  });

  it('serves a 2025-11-25 client (SDK 1.32) a session on the same endpoint, approval through elicitation', async () => {
    const asked: string[] = [];
    const client = await legacyClient(endpoint.url, 'accept', asked);
    expect(client.getServerVersion()).toMatchObject({ name: 'billing' });
    expect(endpoint.sessions).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['getOrder', 'refund']);
    expect(text(await client.callTool({ name: 'refund', arguments: { orderId: 'o-4', amount: 9 } }))).toBe('Refunded 9 for order o-4.');
    expect(asked).toHaveLength(1);
    expect(billing.refunds).toContainEqual({ orderId: 'o-4', amount: 9 });
    await client.close();
  });
});
