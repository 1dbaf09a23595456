/**
 * MCP server benchmark: one `tools/call` of the bench-anchors workload (`add_numbers {a: integer, b: integer, note?:
 * string}`) from the SDK's `Client` over `InMemoryTransport`, served by `serveTools` (a TypeBox-defined registry tool)
 * against the bare SDK server's `registerTool` (zod schema) on the same workload. Three runs; the figure is the median
 * of the three run medians. Target: the served registry within 1.1 times the SDK's own server. A third row runs the
 * bare handler listening to the request's abort signal, as the registry's pipeline does so that MCP cancellation
 * reaches the tool: on Node 20 the first listener on a fresh `AbortSignal` costs several microseconds.
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Type } from '@sinclair/typebox';
import { z } from 'zod';
import { Tools } from '../lib';
import { serveTools } from '../lib/mcp';
import { formatNs, measure, printTable } from './harness';

const DESCRIPTION = 'Add two integers and return the sum.';

async function connected(server: McpServer): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  return client;
}

async function bareSdk(): Promise<Client> {
  const server = new McpServer({ name: 'bare', version: '1.0.0' });
  server.registerTool('add_numbers', { description: DESCRIPTION, inputSchema: { a: z.number().int(), b: z.number().int(), note: z.string().optional() } }, ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  return connected(server);
}

/** The same bare handler made cancellable: it listens to the request's signal while it runs, as the registry's pipeline does. */
async function bareCancellable(): Promise<Client> {
  const server = new McpServer({ name: 'bare-cancellable', version: '1.0.0' });
  const onAbort = () => undefined;
  server.registerTool('add_numbers', { description: DESCRIPTION, inputSchema: { a: z.number().int(), b: z.number().int(), note: z.string().optional() } }, ({ a, b }, extra) => {
    extra.signal.addEventListener('abort', onAbort, { once: true });
    extra.signal.removeEventListener('abort', onAbort);
    return { content: [{ type: 'text', text: String(a + b) }] };
  });
  return connected(server);
}

async function served(): Promise<Client> {
  const tools = new Tools();
  tools.action({ name: 'add_numbers', description: DESCRIPTION, params: Type.Object({ a: Type.Integer(), b: Type.Integer(), note: Type.Optional(Type.String()) }), effects: [] }, async ({ a, b }) => a + b);
  const server = new McpServer({ name: 'served', version: '1.0.0' });
  serveTools(server, tools);
  return connected(server);
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

export default async function mcpBench(): Promise<void> {
  const bare = await bareSdk();
  const cancellable = await bareCancellable();
  const ours = await served();
  for (const client of [bare, cancellable, ours]) {
    const check = (await client.callTool({ name: 'add_numbers', arguments: { a: 1, b: 2 } })) as { content: Array<{ text: string }> };
    if (check.content[0]?.text !== '3') throw new Error('sanity check failed');
  }
  const bareRuns: number[] = [];
  const cancellableRuns: number[] = [];
  const oursRuns: number[] = [];
  for (let run = 0; run < 3; run++) {
    bareRuns.push((await measure('bare SDK registerTool', (i) => bare.callTool({ name: 'add_numbers', arguments: { a: i, b: 2 } }))).medianNs);
    cancellableRuns.push((await measure('bare SDK registerTool, cancellable', (i) => cancellable.callTool({ name: 'add_numbers', arguments: { a: i, b: 2 } }))).medianNs);
    oursRuns.push((await measure('serveTools', (i) => ours.callTool({ name: 'add_numbers', arguments: { a: i, b: 2 } }))).medianNs);
  }
  await Promise.all([bare.close(), cancellable.close(), ours.close()]);
  const b = median(bareRuns);
  const c = median(cancellableRuns);
  const o = median(oursRuns);
  printTable(
    'MCP server: one tools/call over InMemoryTransport (median of three run medians)',
    ['server', 'median', 'runs', '× bare SDK', '× cancellable bare SDK', 'target'],
    [
      ['bare SDK McpServer.registerTool (zod)', formatNs(b), bareRuns.map(formatNs).join(', '), '1.00', '', ''],
      ['same, handler listening to the request signal', formatNs(c), cancellableRuns.map(formatNs).join(', '), (c / b).toFixed(2), '1.00', ''],
      ['serveTools (TypeBox registry)', formatNs(o), oursRuns.map(formatNs).join(', '), (o / b).toFixed(2), (o / c).toFixed(2), '<= 1.10'],
    ],
  );
}
