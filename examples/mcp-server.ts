/**
 * A `Tools` registry served as an MCP server, next to a tool registered natively on the same `McpServer`.
 *
 *   node build/examples/mcp-server.js            # stdio (for Claude Desktop, an IDE, `npx @modelcontextprotocol/inspector`)
 *   node build/examples/mcp-server.js --http 3000  # Streamable HTTP on http://127.0.0.1:3000/mcp
 *
 * Build first with `npx tsc -p tsconfig.run.json`.
 */
import 'reflect-metadata';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Type, type Static } from 'typebox';
import { z } from 'zod';
import { Action, Inject, Tools } from '../lib';
import { McpRequest, serveHttp, serveStdio, serveTools } from '../lib/mcp';

const RefundParams = Type.Object({ orderId: Type.String(), amount: Type.Number({ exclusiveMinimum: 0 }) });

/** Billing tools: a read-only lookup and a refund that needs the user's approval. */
export class BillingTools {
  readonly refunds: Array<Static<typeof RefundParams>> = [];

  @Action('Look up an order by id.', { params: Type.Object({ orderId: Type.String() }), effects: [], title: 'Get order' })
  getOrder({ orderId }: { orderId: string }): { orderId: string; total: number } {
    return { orderId, total: 42 };
  }

  @Action('Refund an order.', { params: RefundParams, requiresApproval: true, status: 'Refunding {amount} for order {orderId}...' })
  async refund(params: Static<typeof RefundParams>, @Inject(McpRequest, { optional: true }) mcp?: McpRequest): Promise<string> {
    await mcp?.log('info', `refunding ${params.amount} for ${params.orderId}`);
    this.refunds.push(params);
    return `Refunded ${params.amount} for order ${params.orderId}.`;
  }
}

/** The server: the registry's tools plus one native zod tool, side by side in `tools/list`. */
export function createServer(billing = new BillingTools()): McpServer {
  const server = new McpServer({ name: 'billing', version: '1.0.0' });
  server.registerTool('ping', { description: 'Answer pong.', inputSchema: { message: z.string().optional() } }, ({ message }) => ({
    content: [{ type: 'text', text: `pong${message ? ` ${message}` : ''}` }],
  }));
  serveTools(server, new Tools().register(billing));
  return server;
}

async function main(args: readonly string[]): Promise<void> {
  const http = args.indexOf('--http');
  if (http === -1) return serveStdio(createServer());
  const endpoint = await serveHttp(() => createServer(), { port: Number(args[http + 1] ?? 3000) });
  console.log(`MCP server on ${endpoint.url}`);
}

if (require.main === module) void main(process.argv.slice(2));
