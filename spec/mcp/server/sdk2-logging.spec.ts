/**
 * Logging of the served registry on SDK v2 for 2025-11-25 sessions: the tool server declares the `logging`
 * capability, so a client's `logging/setLevel` is answered and `McpRequest.log` reaches it at or above that level.
 * A server already connected when served keeps its capabilities (they are fixed then). Real SDK clients.
 */
import 'reflect-metadata';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, InMemoryTransport as ClientMemoryTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { Action, Inject, Tools } from '../../../lib';
import { McpRequest, serveHttp, serveTools, type McpHttpEndpoint } from '../../../lib/mcp';

class Chatty {
  @Action('Logs at debug and at warning.', { effects: [] })
  async chatter(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    await mcp.log('debug', 'fine detail');
    await mcp.log('warning', 'something to know');
    return 'done';
  }
}

describe('serveTools on SDK v2: logging on a 2025-11-25 session', () => {
  let endpoint: McpHttpEndpoint;
  beforeAll(async () => {
    const tools = new Tools().register(new Chatty());
    endpoint = await serveHttp(() => {
      const server = new McpServer({ name: 'chatty', version: '1.0.0' });
      serveTools(server, tools);
      return server;
    });
  });
  afterAll(() => endpoint.close());

  it('declares logging, answers logging/setLevel, and sends only the messages at or above the level set', async () => {
    const client = new V1Client({ name: 'legacy', version: '1' });
    const logged: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logged.push(`${notification.params.level}: ${String(notification.params.data)}`));
    await client.connect(new V1HttpTransport(new URL(endpoint.url)));
    try {
      expect(client.getServerCapabilities()?.logging).toEqual({});
      await client.setLoggingLevel('info');
      const result = await client.callTool({ name: 'chatter', arguments: {} });
      expect((result as { content: Array<{ text: string }> }).content[0]?.text).toBe('done');
      expect(logged).toEqual(['warning: something to know']);
    } finally {
      await client.close();
    }
  });

  it('serves a server that is connected already without declaring anything: its capabilities stay as they were', async () => {
    const server = new McpServer({ name: 'early', version: '1.0.0' }, { capabilities: { tools: {} } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const tools = new Tools().register(new Chatty());
    expect(() => serveTools(server, tools)).not.toThrow();
    const client = new V2Client({ name: 'memory', version: '1' });
    await client.connect(clientSide as unknown as ClientMemoryTransport);
    try {
      expect(client.getServerCapabilities()?.logging).toBeUndefined();
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['chatter']);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
