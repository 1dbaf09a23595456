import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ToolLogger } from '../../../lib';

/** A logger that records what it is told. */
export function recordingLogger(): ToolLogger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, warn: (message) => lines.push(`warn: ${message}`), error: (message) => lines.push(`error: ${message}`) };
}

/** The official SDK server the specs talk to: a few tools of each kind. */
export function sdkServer(): McpServer {
  const server = new McpServer({ name: 'sdk-test-server', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.registerTool('add', { title: 'Add', description: 'Add two numbers.', inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
  server.registerTool(
    'read_note',
    { description: 'Read a note.', inputSchema: { id: z.string() }, annotations: { readOnlyHint: true, openWorldHint: false } },
    ({ id }) => ({ content: [{ type: 'text', text: `note ${id}` }] }),
  );
  server.registerTool(
    'weather',
    { description: 'Weather as data.', inputSchema: { city: z.string() }, outputSchema: { city: z.string(), celsius: z.number() } },
    ({ city }) => ({ content: [{ type: 'text', text: JSON.stringify({ city, celsius: 21 }) }], structuredContent: { city, celsius: 21 } }),
  );
  server.registerTool('fail', { description: 'Always fails.' }, () => ({ content: [{ type: 'text', text: 'the database is down' }], isError: true }));
  return server;
}

/** `server` and an SDK client connected to it in memory. */
export async function connectInMemory(server: McpServer, client = new Client({ name: 'spec-client', version: '1.0.0' })): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return client;
}

/** Resolves once `predicate` holds, polling (fails the spec after `ms`). */
export async function until(predicate: () => boolean, ms = 5000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > ms) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
