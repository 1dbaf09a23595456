import { join } from 'node:path';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ActionResult, Tools } from '../../../lib';
import { McpClientTools } from '../../../lib/mcp';
import { HttpMcpServer, recordingLogger, until } from './support';

const STDIO_SERVER = join(__dirname, '..', '..', '..', 'examples', 'mcp-stdio-server.cjs');

describe('McpClientTools over stdio (a child process running the official SDK server)', () => {
  let mcp: McpClientTools | undefined;
  afterEach(async () => {
    await mcp?.close();
    mcp = undefined;
  });

  function stdio(tools: Tools, extra: object = {}) {
    return McpClientTools.connect(tools, { name: 'notes', command: process.execPath, args: [STDIO_SERVER], stderr: 'pipe', logger: recordingLogger(), ...extra });
  }

  it('starts the server, registers its tools and calls them', async () => {
    const tools = new Tools({ logger: recordingLogger() });
    mcp = await stdio(tools);
    expect(mcp.toolNames).toEqual(['mcp__notes__list_notes', 'mcp__notes__read_note', 'mcp__notes__write_note', 'mcp__notes__wait', 'mcp__notes__pid']);
    expect(await tools.execute('mcp__notes__write_note', { id: 'todo', text: 'ship it' })).toEqual(ActionResult.success("Saved note 'todo'."));
    expect(await tools.execute('mcp__notes__read_note', { id: 'todo' })).toEqual(ActionResult.success({ id: 'todo', text: 'ship it' }));
    expect((await tools.execute('mcp__notes__read_note', { id: 'nope' })).error).toBe("No note 'nope'. Call list_notes first.");
  });

  it('cancels a running call: the server child receives notifications/cancelled', async () => {
    const tools = new Tools({ logger: recordingLogger() });
    mcp = await stdio(tools);
    const stderr: string[] = [];
    (mcp.client!.transport as StdioClientTransport).stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    // Cancelled once the server is running the call, not after a fixed delay: a loaded machine may not have sent it
    // by then (nothing in flight to cancel), and a cancellation that overtakes the call is never heard by the tool.
    // The server answers messages in order, so its answer to a ping sent after the call means the call has started.
    const transport = mcp.client!.transport as StdioClientTransport;
    const send = transport.send.bind(transport);
    let callSent!: () => void;
    const sent = new Promise<void>((resolve) => (callSent = resolve));
    jest.spyOn(transport, 'send').mockImplementation(async (message) => {
      await send(message);
      if ('method' in message && message.method === 'tools/call') callSent();
    });
    const controller = new AbortController();
    const running = tools.execute('mcp__notes__wait', {}, { signal: controller.signal });
    await sent;
    await mcp.client!.ping();
    controller.abort();
    expect((await running).error).toMatch(/was cancelled/);
    await until(() => stderr.join('').includes('wait: cancelled'));
  });

  it('reconnects after the server process dies, with a new process, and the tools keep working', async () => {
    const tools = new Tools({ logger: recordingLogger() });
    const changes: unknown[] = [];
    mcp = await stdio(tools, { onToolsChanged: (change: unknown) => changes.push(change) });
    const first = (await tools.execute('mcp__notes__pid', {})).result as string;
    process.kill(Number(first), 'SIGKILL');
    await until(() => !mcp!.isConnected, 10_000);
    const second = await tools.execute('mcp__notes__pid', {});
    expect(second.ok).toBe(true);
    expect(second.result).not.toBe(first);
    expect(mcp.isConnected).toBe(true);
    expect(changes).toHaveLength(1);
  });

  it('fails a call for the model when the server cannot be restarted, and reconnect() says why', async () => {
    const tools = new Tools({ logger: recordingLogger() });
    mcp = await stdio(tools, { reconnect: { maxAttempts: 2, delayMs: 10 } });
    const pid = Number((await tools.execute('mcp__notes__pid', {})).result);
    (mcp as unknown as { options: { command: string } }).options.command = join(__dirname, 'no-such-server');
    process.kill(pid, 'SIGKILL');
    await until(() => !mcp!.isConnected, 10_000);
    const result = await tools.execute('mcp__notes__pid', {});
    expect(result.error).toBe("MCP server 'notes' is not connected and could not be reconnected; try again later or use another tool.");
    await expect(mcp.reconnect()).rejects.toMatchObject({ code: 'MCP_CONNECT_FAILED', message: expect.stringMatching(/after 2 attempts/) });
  });

  it('fails with MCP_CONNECT_FAILED when the program cannot be started', async () => {
    const tools = new Tools();
    await expect(McpClientTools.connect(tools, { name: 'x', command: join(__dirname, 'no-such-server'), stderr: 'ignore' })).rejects.toMatchObject({ code: 'MCP_CONNECT_FAILED' });
    expect(tools.list()).toEqual([]);
  });
});

describe('McpClientTools over Streamable HTTP (official SDK server on loopback)', () => {
  const server = new HttpMcpServer();
  let mcp: McpClientTools | undefined;
  afterEach(async () => {
    await mcp?.close();
    mcp = undefined;
    await server.stop();
    server.calls.length = 0;
    server.methods.length = 0;
  });

  it('connects to the URL with the given headers, registers and calls the tools', async () => {
    const url = await server.start();
    const tools = new Tools({ logger: recordingLogger() });
    mcp = await McpClientTools.connect(tools, { name: 'web', url, headers: { authorization: 'Bearer t0ken' }, transportOptions: { requestInit: { headers: { 'x-extra': '1' } } } });
    expect(mcp.toolNames).toEqual(['mcp__web__echo']);
    expect(await tools.execute('mcp__web__echo', { text: 'hi' })).toEqual(ActionResult.success('hi'));
    expect(server.headers).toMatchObject({ authorization: 'Bearer t0ken', 'x-extra': '1' });
    await mcp.close();
    expect(server.methods.at(-1)).toBe('DELETE');
    expect(server.headers['mcp-session-id']).toBeDefined();
  });

  it.each([1, 2] as const)('sends every request through a fetch given in transportOptions (sdk: %s)', async (sdk) => {
    const url = await server.start();
    const methods: string[] = [];
    const own = (input: string | URL, init?: RequestInit) => (methods.push(init?.method ?? 'GET'), fetch(input, init));
    mcp = await McpClientTools.connect(new Tools(), { name: 'web', url, sdk, transportOptions: { fetch: own }, logger: recordingLogger() });
    await mcp.close();
    expect(methods).toContain('POST');
    expect(methods.at(-1)).toBe('DELETE');
  });

  it('closes even when ending the session fails (the server is gone)', async () => {
    const url = await server.start();
    const logger = recordingLogger();
    mcp = await McpClientTools.connect(new Tools(), { name: 'web', url, logger, reconnect: false });
    await server.stop();
    await mcp.close();
    expect(mcp.isConnected).toBe(false);
    expect(logger.lines.join('\n')).toMatch(/ending the HTTP session failed/);
  });

  it('starts a new session when the restarted server no longer knows the old one, and the call goes through once', async () => {
    const url = await server.start();
    const tools = new Tools({ logger: recordingLogger() });
    mcp = await McpClientTools.connect(tools, { name: 'web', url, logger: recordingLogger() });
    const session = (mcp.client!.transport as { sessionId?: string }).sessionId;
    await server.stop();
    await server.start(server.port);
    expect(await tools.execute('mcp__web__echo', { text: 'after restart' })).toEqual(ActionResult.success('after restart'));
    expect(server.calls).toEqual(['after restart']);
    expect((mcp.client!.transport as { sessionId?: string }).sessionId).not.toBe(session);
  });

  it('tells the model a server that went down is not connected (the call was not sent), and reconnects once it is back', async () => {
    const url = await server.start();
    const tools = new Tools({ logger: recordingLogger() });
    const logger = recordingLogger();
    mcp = await McpClientTools.connect(tools, { name: 'web', url, logger, reconnect: { maxAttempts: 1 } });
    await server.stop();
    const failed = await tools.execute('mcp__web__echo', { text: 'down' });
    expect(failed.error).toBe("MCP server 'web' is not connected and could not be reconnected; try again later or use another tool.");
    expect(server.calls).toEqual([]);
    await until(() => logger.lines.some((line) => line.includes('reconnection attempt 1 of 1 failed')));
    await server.start(server.port);
    expect(await tools.execute('mcp__web__echo', { text: 'back' })).toEqual(ActionResult.success('back'));
  });
});
