/**
 * The served registry's effects on the rest of the user's McpServer: the client's log level applies to the server's
 * own log messages, listing changes are announced once per tick, and idle Streamable HTTP sessions are closed.
 */
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LoggingMessageNotificationSchema, ToolListChangedNotificationSchema, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { Type } from '@sinclair/typebox';
import { ActionResult, Tools } from '../../../lib';
import { mcpToolResult } from '../../../lib/providers/mcp-result';
import { toCallToolResult } from '../../../lib/mcp/server/mcp-tool-server';
import { DEFAULT_SESSION_IDLE_MS, serveHttp, serveTools } from '../../../lib/mcp';
import { waitFor } from '../../support/wait-for';

const quiet = { warn: () => undefined, error: () => undefined };
const settle = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));

function registry(...names: string[]): Tools {
  const tools = new Tools({ logger: quiet });
  for (const name of names) tools.action({ name, description: `Tool ${name}.`, params: Type.Object({}), effects: [] }, () => name);
  return tools;
}

async function connect(server: McpServer): Promise<{ client: Client; logged: LoggingLevel[]; listChanged: jest.Mock }> {
  const client = new Client({ name: 'spec', version: '1.0.0' });
  const logged: LoggingLevel[] = [];
  const listChanged = jest.fn();
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logged.push(notification.params.level));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => listChanged());
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  return { client, logged, listChanged };
}

const ALL: LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

describe('serveTools: the log level the client set applies to the server\'s own log messages', () => {
  for (const declared of [false, true]) {
    it(`filters server.sendLoggingMessage by the client's level (logging capability ${declared ? 'declared by the user' : 'declared by serveTools'})`, async () => {
      const server = new McpServer({ name: 'logs', version: '1.0.0' }, declared ? { capabilities: { logging: {} } } : {});
      server.registerTool('log_all', { description: 'Logs at every level from user code.' }, async (extra) => {
        for (const level of ALL) await server.sendLoggingMessage({ level, data: level }, extra.sessionId);
        return { content: [{ type: 'text', text: 'ok' }] };
      });
      serveTools(server, registry('noop'));
      const { client, logged } = await connect(server);
      await client.callTool({ name: 'log_all', arguments: {} });
      await settle();
      expect(logged).toEqual(ALL);

      logged.length = 0;
      await client.setLoggingLevel('error');
      await client.callTool({ name: 'log_all', arguments: {} });
      await settle();
      expect(logged).toEqual(['error', 'critical', 'alert', 'emergency']);

      logged.length = 0;
      await client.setLoggingLevel('debug');
      await server.server.sendLoggingMessage({ level: 'info', data: 'low-level server too' });
      await settle();
      expect(logged).toEqual(['info']);
      await client.close();
    });
  }

  it('keeps levels per session: a session that set none gets every level', async () => {
    const endpoint = await serveHttp(() => {
      const server = new McpServer({ name: 'logs', version: '1.0.0' });
      server.registerTool('log_all', { description: 'Logs at every level.' }, async (extra) => {
        for (const level of ALL) await server.sendLoggingMessage({ level, data: level }, extra.sessionId);
        return { content: [{ type: 'text', text: 'ok' }] };
      });
      serveTools(server, registry('noop'));
      return server;
    });
    try {
      const open = async () => {
        const client = new Client({ name: 'spec', version: '1.0.0' });
        const logged: LoggingLevel[] = [];
        client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logged.push(notification.params.level));
        await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
        return { client, logged };
      };
      const strict = await open();
      const chatty = await open();
      await strict.client.setLoggingLevel('critical');
      await strict.client.callTool({ name: 'log_all', arguments: {} });
      await chatty.client.callTool({ name: 'log_all', arguments: {} });
      await settle(50);
      expect(strict.logged).toEqual(['critical', 'alert', 'emergency']);
      expect(chatty.logged).toEqual(ALL);
      await Promise.all([strict.client.close(), chatty.client.close()]);
    } finally {
      await endpoint.close();
    }
  });
});

describe('serveTools: one tools/list_changed per change, not one per tool', () => {
  it('announces tools registered in the same tick once, and lists them all', async () => {
    const tools = registry('a');
    const server = new McpServer({ name: 'x', version: '1.0.0' });
    serveTools(server, tools);
    const { client, listChanged } = await connect(server);
    for (const name of ['b', 'c', 'd']) tools.action({ name, description: `Tool ${name}.`, params: Type.Object({}), effects: [] }, () => name);
    await settle();
    expect(listChanged).toHaveBeenCalledTimes(1);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['a', 'b', 'c', 'd']);
    tools.action({ name: 'e', description: 'Tool e.', params: Type.Object({}), effects: [] }, () => 'e');
    await settle();
    expect(listChanged).toHaveBeenCalledTimes(2);
    await client.close();
  });

  it('announces a registry served on a connected server once; native registrations still announce themselves', async () => {
    const server = new McpServer({ name: 'x', version: '1.0.0' });
    server.registerTool('native', { description: 'Native.' }, () => ({ content: [{ type: 'text', text: 'n' }] }));
    const { client, listChanged } = await connect(server);
    serveTools(server, registry('a', 'b', 'c'));
    await settle();
    expect(listChanged).toHaveBeenCalledTimes(1);
    expect(Object.prototype.hasOwnProperty.call(server, 'sendToolListChanged')).toBe(false);
    server.registerTool('native_later', { description: 'Native, later.' }, () => ({ content: [{ type: 'text', text: 'n' }] }));
    await settle();
    expect(listChanged).toHaveBeenCalledTimes(2);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['a', 'b', 'c', 'native', 'native_later']);
    await client.close();
  });

  it('keeps a sendToolListChanged the user installed on the instance', async () => {
    const server = new McpServer({ name: 'x', version: '1.0.0' });
    const sent = jest.fn();
    const own = () => sent();
    server.sendToolListChanged = own;
    const tools = registry('a');
    serveTools(server, tools);
    expect(server.sendToolListChanged).toBe(own);
    await connect(server);
    tools.action({ name: 'b', description: 'Tool b.', params: Type.Object({}), effects: [] }, () => 'b');
    await settle();
    expect(sent).toHaveBeenCalledTimes(1);
    expect(server.sendToolListChanged).toBe(own);
  });
});

/** A raw POST to an MCP endpoint with a session id: the HTTP status. */
function postStatus(url: string, sessionId: string): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }));
  });
}

describe('serveHttp: idle sessions', () => {
  const servers: McpServer[] = [];
  const create = () => {
    const server = new McpServer({ name: 'idle', version: '1.0.0' });
    serveTools(server, registry('hello'));
    servers.push(server);
    return server;
  };
  beforeEach(() => (servers.length = 0));

  it('closes a session idle for idleTimeoutMs (server and transport), and the client then gets 404', async () => {
    // Long enough that a busy machine finishes connecting (initialize, then the standalone stream) inside it.
    const endpoint = await serveHttp(create, { idleTimeoutMs: 1_500 });
    servers.length = 0; // serveHttp calls the factory once at start to tell the SDK line
    try {
      const client = new Client({ name: 'spec', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(endpoint.url));
      await client.connect(transport);
      const sessionId = transport.sessionId!;
      expect(await client.callTool({ name: 'hello', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'hello' }] });
      // Connected with its standalone SSE stream open: not idle, however long.
      await settle(4_500);
      expect(servers[0]!.isConnected()).toBe(true);
      expect(await client.callTool({ name: 'hello', arguments: {} })).toMatchObject({ isError: false });
      // A client that goes away without ending its session (no DELETE) leaves it idle.
      await transport.close();
      await waitFor(() => !servers[0]!.isConnected(), 'the idle session closed');
      expect(await postStatus(endpoint.url, sessionId)).toBe(404);
    } finally {
      await endpoint.close();
    }
  });

  it('keeps sessions with idleTimeoutMs 0, has a 30-minute default, and refuses unusable values', async () => {
    expect(DEFAULT_SESSION_IDLE_MS).toBe(30 * 60 * 1000);
    const endpoint = await serveHttp(create, { idleTimeoutMs: 0 });
    servers.length = 0; // serveHttp calls the factory once at start to tell the SDK line
    try {
      const transport = new StreamableHTTPClientTransport(new URL(endpoint.url));
      const client = new Client({ name: 'spec', version: '1.0.0' });
      await client.connect(transport);
      const sessionId = transport.sessionId!;
      await transport.close();
      await settle(200);
      expect(servers[0]!.isConnected()).toBe(true);
      expect(await postStatus(endpoint.url, sessionId)).toBe(200);
    } finally {
      await endpoint.close();
    }
    expect(servers[0]!.isConnected()).toBe(false);
    for (const idleTimeoutMs of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(serveHttp(create, { idleTimeoutMs })).rejects.toMatchObject({ code: 'MCP_HTTP_OPTIONS' });
    }
  });
});

describe('toCallToolResult: the shortcut for plain successes gives what mcpToolResult gives', () => {
  it('matches mcpToolResult for strings (lone surrogates too), numbers, booleans and every other kind', () => {
    const values: unknown[] = ['plain', '', 'lone \ud800 surrogate', 3, -0, 1e21, 0.1, Number.NaN, Number.POSITIVE_INFINITY, true, false, null, undefined, { a: 1 }, [1, 2], 10n];
    for (const value of values) expect(toCallToolResult(ActionResult.success(value))).toEqual(mcpToolResult(ActionResult.success(value)));
    expect(toCallToolResult(ActionResult.fail('no'))).toEqual(mcpToolResult(ActionResult.fail('no')));
  });
});
