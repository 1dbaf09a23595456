/**
 * A `Tools` registry served on the MCP SDK v2 (`@modelcontextprotocol/server`), next to a tool registered natively on
 * the same `McpServer`: one server for clients of the 2026-07-28 revision and of 2025-11-25.
 *
 *   node build/examples/mcp-server-sdk2.js              # stdio
 *   node build/examples/mcp-server-sdk2.js --http 3000  # Streamable HTTP on http://127.0.0.1:3000/mcp
 *
 * Build first with `npx tsc -p tsconfig.run.json`.
 */
import 'reflect-metadata';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { Tools } from '../lib';
import { serveHttp, serveStdio, serveTools } from '../lib/mcp';
import { BillingTools } from './mcp-server';

/** A server of the registry plus one native zod tool (SDK v2 builds one per request or connection). */
export function createServer(tools: Tools): McpServer {
  const server = new McpServer({ name: 'billing', version: '1.0.0' });
  server.registerTool('ping', { description: 'Answer pong.', inputSchema: z.object({ message: z.string().optional() }) }, ({ message }) => ({
    content: [{ type: 'text', text: `pong${message ? ` ${message}` : ''}` }],
  }));
  serveTools(server, tools);
  return server;
}

async function main(args: readonly string[]): Promise<void> {
  const tools = new Tools().register(new BillingTools());
  const http = args.indexOf('--http');
  if (http === -1) {
    serveStdio(() => createServer(tools));
    return;
  }
  const endpoint = await serveHttp(() => createServer(tools), { port: Number(args[http + 1] ?? 3000), registries: [tools] });
  console.log(`MCP server on ${endpoint.url}`);
}

if (require.main === module) void main(process.argv.slice(2));
