import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
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

/** An official SDK server over Streamable HTTP on loopback, one session per client, that can be restarted on its port. */
export class HttpMcpServer {
  private http: HttpServer | undefined;
  readonly calls: string[] = [];
  readonly methods: string[] = [];
  headers: Record<string, string | string[] | undefined> = {};
  port = 0;

  async start(port = 0): Promise<string> {
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    this.http = createServer(async (req, res) => {
      this.headers = req.headers;
      this.methods.push(req.method!);
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body: unknown = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
      const id = req.headers['mcp-session-id'] as string | undefined;
      let transport = id === undefined ? undefined : sessions.get(id);
      if (transport === undefined) {
        if (id !== undefined || !isInitializeRequest(body)) return void res.writeHead(404).end();
        transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => void sessions.set(sid, transport!) });
        await this.mcpServer().connect(transport);
      }
      await transport.handleRequest(req, res, body);
    });
    await new Promise<void>((resolve) => this.http!.listen(port, '127.0.0.1', resolve));
    this.port = (this.http.address() as AddressInfo).port;
    return `http://127.0.0.1:${this.port}/mcp`;
  }

  async stop(): Promise<void> {
    const http = this.http;
    this.http = undefined;
    if (http === undefined) return;
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }

  private mcpServer(): McpServer {
    const server = new McpServer({ name: 'http-notes', version: '1.0.0' });
    server.registerTool('echo', { description: 'Echo.', inputSchema: { text: z.string() } }, ({ text }) => (this.calls.push(text), { content: [{ type: 'text', text }] }));
    return server;
  }
}

