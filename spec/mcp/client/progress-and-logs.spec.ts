import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Type } from '@sinclair/typebox';
import { z } from 'zod';
import { ActionResult, ToolChunk, ToolResultState, Tools, type ToolLogger } from '../../../lib';
import { MCP_PROGRESS, McpClientTools, progressOf, serveTools, type McpProgress } from '../../../lib/mcp';
import { connectInMemory } from './support';

/** A logger that records every call with its level and details. */
function detailedLogger(withDebug = true): ToolLogger & { entries: Array<{ level: string; message: string; details?: Record<string, unknown> }> } {
  const entries: Array<{ level: string; message: string; details?: Record<string, unknown> }> = [];
  const record = (level: string) => (message: string, details?: Record<string, unknown>) => void entries.push({ level, message, ...(details === undefined ? {} : { details }) });
  return { entries, warn: record('warn'), error: record('error'), ...(withDebug ? { debug: record('debug') } : {}) };
}

/** An SDK server whose `steps` tool reports progress (when asked) before answering, and whose `quiet` tool does not. */
function progressServer(): McpServer {
  const server = new McpServer({ name: 'progress-server', version: '1.0.0' });
  server.registerTool('steps', { description: 'Counts to three.', inputSchema: { n: z.number() }, outputSchema: { total: z.number() } }, async ({ n }, extra) => {
    const token = extra._meta?.progressToken;
    if (token !== undefined) {
      for (let i = 1; i <= 3; i++) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: 3, ...(i === 2 ? { message: 'halfway' } : {}) } });
    }
    return { content: [{ type: 'text', text: JSON.stringify({ total: n }) }], structuredContent: { total: n } };
  });
  server.registerTool('failing', { description: 'Reports progress, then fails.' }, async (extra) => {
    await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta!.progressToken!, progress: 1 } });
    return { content: [{ type: 'text', text: 'the disk is full' }], isError: true };
  });
  server.registerTool('quiet', { description: 'Answers at once.' }, () => ({ content: [{ type: 'text', text: 'done' }] }));
  return server;
}

async function setup(server: McpServer, options: Partial<Parameters<typeof McpClientTools.connect>[1]> = {}) {
  const logger = detailedLogger();
  const tools = new Tools({ logger });
  const client = await connectInMemory(server);
  const mcp = await McpClientTools.connect(tools, { name: 'remote', client, ...options });
  return { tools, mcp, logger, client };
}

describe('McpClientTools: a remote server\'s progress notifications', () => {
  it('streams each progress notification as a content-less chunk, then the result, which stays what execute gives', async () => {
    const { tools } = await setup(progressServer());
    const stream = tools.stream('mcp__remote__steps', { n: 7 });
    const chunks: ToolChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const progress = chunks.map(progressOf).filter((p): p is McpProgress => p !== undefined);
    expect(progress).toEqual([{ progress: 1, total: 3 }, { progress: 2, total: 3, message: 'halfway' }, { progress: 3, total: 3 }]);
    for (const chunk of chunks.slice(0, 3)) {
      expect(chunk.state).toBe(ToolResultState.RUNNING);
      expect(chunk.content).toEqual([]);
      expect(Object.isFrozen(chunk.metadata[MCP_PROGRESS])).toBe(true);
    }
    expect(chunks[3]!.state).toBe(ToolResultState.SUCCESS);
    expect(await stream.result).toEqual(ActionResult.success({ total: 7 }));
    expect(await tools.execute('mcp__remote__steps', { n: 7 })).toEqual(ActionResult.success({ total: 7 }));
  });

  it('asks for progress with a token on every call, and a call without progress is not streamed', async () => {
    const server = progressServer();
    const tokens: unknown[] = [];
    server.registerTool('token', { description: 'Echoes whether it got a progress token.' }, (extra) => {
      tokens.push(extra._meta?.progressToken);
      return { content: [{ type: 'text', text: 'ok' }] };
    });
    const { tools } = await setup(server);
    const chunks: ToolChunk[] = [];
    const stream = tools.stream('mcp__remote__token', {});
    for await (const chunk of stream) chunks.push(chunk);
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toEqual(expect.anything());
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(await tools.execute('mcp__remote__quiet', {})).toEqual(ActionResult.success('done'));
  });

  it('checks the output schema of a call whose progress was streamed, and fails it as a plain call fails', async () => {
    // A low-level SDK server: it declares an output schema and breaks it, so only the adapter's own check catches it.
    const server = new Server({ name: 'liar', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: 'lie', description: 'Breaks its output schema.', inputSchema: { type: 'object', properties: { progress: { type: 'boolean' } } }, outputSchema: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const token = request.params._meta?.progressToken;
      if (request.params.arguments?.progress === true && token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 1 } });
      return { content: [{ type: 'text', text: '{"total":"two"}' }], structuredContent: { total: 'two' } };
    });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(clientTransport);
    const tools = new Tools({ logger: detailedLogger() });
    const mcp = await McpClientTools.connect(tools, { name: 'liar', client });
    const plain = await tools.execute('mcp__liar__lie', { progress: false });
    const streamed = tools.stream('mcp__liar__lie', { progress: true });
    const chunks: ToolChunk[] = [];
    for await (const chunk of streamed) chunks.push(chunk);
    expect(chunks.map(progressOf)[0]).toEqual({ progress: 1 });
    // The SDK client checks structured content against the listed schema first; the adapter's own check (the same
    // schema, run on the final output of a streamed call) fails such output too.
    expect(plain.ok).toBe(false);
    expect(plain.error).toMatch(/output schema/);
    expect((await streamed.result).error).toBe(plain.error);
    expect((await tools.execute('mcp__liar__lie', { progress: true })).error).toBe(plain.error);
    const tool = mcp.toolList[0]!;
    expect(() => tool.checkResult({ total: 'two' })).toThrow(/does not match the output schema/);
    expect(tool.checkResult({ total: 2 })).toEqual({ total: 2 });
  });

  it('fails a call that failed after reporting progress, as without progress', async () => {
    const { tools } = await setup(progressServer());
    expect((await tools.execute('mcp__remote__failing', {})).error).toBe('the disk is full');
    const stream = tools.stream('mcp__remote__failing', {});
    const chunks: ToolChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(progressOf(chunks[0]!)).toEqual({ progress: 1 });
    expect((await stream.result).error).toBe('the disk is full');
  });

  it('cancels a call whose progress is streaming: the stream ends interrupted and the server sees the abort', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    let serverAborted = false;
    server.registerTool('long', { description: 'Reports progress, then waits.' }, async (extra) => {
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta!.progressToken!, progress: 1, message: 'started' } });
      return new Promise((resolve) => extra.signal.addEventListener('abort', () => ((serverAborted = true), resolve({ content: [{ type: 'text', text: 'aborted' }] }))));
    });
    const { tools } = await setup(server);
    const controller = new AbortController();
    const stream = tools.stream('mcp__remote__long', {}, { signal: controller.signal });
    const seen: ToolChunk[] = [];
    for await (const chunk of stream) {
      seen.push(chunk);
      if (progressOf(chunk)?.message === 'started') controller.abort();
    }
    expect((await stream.result).error).toMatch(/cancelled/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(serverAborted).toBe(true);
  });

  it('passes remote progress on when the registry is itself served over MCP (a proxy)', async () => {
    const { tools } = await setup(progressServer());
    const front = new McpServer({ name: 'front', version: '1.0.0' });
    serveTools(front, tools);
    const client = await connectInMemory(front);
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = await client.callTool({ name: 'mcp__remote__steps', arguments: { n: 2 } }, undefined, { onprogress: (p) => progress.push({ progress: p.progress, ...(p.message === undefined ? {} : { message: p.message }) }) });
    expect(result.structuredContent).toEqual({ total: 2 });
    expect(progress.map((p) => p.message)).toEqual(['Running mcp__remote__steps...', '1/3', 'halfway', '3/3']);
    expect(progress.map((p) => p.progress)).toEqual([0, 1, 2, 3]);
  });
});

describe('McpClientTools: a remote server\'s log messages', () => {
  function loggingServer(): McpServer {
    const server = new McpServer({ name: 'logging-server', version: '1.0.0' }, { capabilities: { logging: {} } });
    server.registerTool('chatty', { description: 'Logs at every level.' }, async (extra) => {
      for (const level of ['debug', 'info', 'notice', 'warning', 'error', 'critical'] as const) {
        await server.sendLoggingMessage({ level, logger: 'db', data: level === 'error' ? { code: 42, text: 'x'.repeat(3000) } : `${level} line` }, extra.sessionId);
      }
      return { content: [{ type: 'text', text: 'logged' }] };
    });
    return server;
  }

  it('sends each log message to the registry\'s logger by level, with the server\'s level, logger and data', async () => {
    const { tools, logger } = await setup(loggingServer());
    expect(await tools.execute('mcp__remote__chatty', {})).toEqual(ActionResult.success('logged'));
    const lines = logger.entries.filter((e) => e.message.includes('(db)'));
    expect(lines.map((e) => [e.level, e.details?.level])).toEqual([
      ['debug', 'debug'],
      ['debug', 'info'],
      ['debug', 'notice'],
      ['warn', 'warning'],
      ['error', 'error'],
      ['error', 'critical'],
    ]);
    expect(lines[3]!.message).toBe("MCP server 'remote' (db) [warning]: warning line");
    expect(lines[4]!.details).toEqual({ mcpServer: 'remote', level: 'error', logger: 'db', data: { code: 42, text: 'x'.repeat(3000) } });
    expect(lines[4]!.message.length).toBeLessThan(2100);
  });

  it('sets the level it asks for with logging/setLevel, so the server sends only that and above', async () => {
    const { tools, logger } = await setup(loggingServer(), { logLevel: 'warning' });
    await tools.execute('mcp__remote__chatty', {});
    expect(logger.entries.filter((e) => e.message.includes('(db)')).map((e) => e.details?.level)).toEqual(['warning', 'error', 'critical']);
  });

  it('uses the logger of the options over the registry\'s, and a logger without debug drops debug-level lines', async () => {
    const own = detailedLogger(false);
    const { tools, logger } = await setup(loggingServer(), { logger: own });
    await tools.execute('mcp__remote__chatty', {});
    expect(logger.entries.filter((e) => e.message.includes('(db)'))).toEqual([]);
    expect(own.entries.map((e) => e.details?.level)).toEqual(['warning', 'error', 'critical']);
  });

  it('does not ask for a level from a server without the logging capability, and a logger that throws changes nothing', async () => {
    const server = new McpServer({ name: 'plain', version: '1' });
    server.registerTool('noop', { description: 'No-op.' }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
    const methods: string[] = [];
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const inner = serverTransport.onmessage!;
    serverTransport.onmessage = (message, extra) => {
      if ('method' in message) methods.push(message.method);
      inner(message, extra);
    };
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(clientTransport);
    const throwing: ToolLogger = { warn: () => { throw new Error('boom'); }, error: () => { throw new Error('boom'); }, debug: () => { throw new Error('boom'); } };
    const tools = new Tools({ logger: detailedLogger() });
    await McpClientTools.connect(tools, { name: 'plain', client, logLevel: 'debug', logger: throwing });
    expect(methods).not.toContain('logging/setLevel');
    expect(await tools.execute('mcp__plain__noop', {})).toEqual(ActionResult.success('ok'));

    const chatty = loggingServer();
    const tools2 = new Tools({ logger: detailedLogger() });
    await McpClientTools.connect(tools2, { name: 'chatty', client: await connectInMemory(chatty), logger: throwing });
    expect(await tools2.execute('mcp__chatty__chatty', {})).toEqual(ActionResult.success('logged'));
  });

  it('warns when the server refuses the level, and connects anyway', async () => {
    const server = new McpServer({ name: 'refuses', version: '1' }, { capabilities: { logging: {} } });
    server.registerTool('noop', { description: 'No-op.' }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
    server.server.setRequestHandler(SetLevelRequestSchema, () => {
      throw new Error('levels are fixed here');
    });
    const { tools, logger } = await setup(server, { logLevel: 'info' });
    expect(logger.entries.map((e) => e.message).join('\n')).toMatch(/could not set its log level to 'info': .*levels are fixed here/);
    expect(await tools.execute('mcp__remote__noop', {})).toEqual(ActionResult.success('ok'));
  });
});

describe('progressOf', () => {
  it('reads only a well-formed progress entry', () => {
    expect(progressOf(new ToolChunk({ metadata: { [MCP_PROGRESS]: { progress: 1 } } }))).toEqual({ progress: 1 });
    expect(progressOf(new ToolChunk({ metadata: { [MCP_PROGRESS]: { progress: '1' } } }))).toBeUndefined();
    expect(progressOf(new ToolChunk({ metadata: { [MCP_PROGRESS]: null } }))).toBeUndefined();
    expect(progressOf(ToolChunk.text('x'))).toBeUndefined();
  });

  it('is what a local streaming tool can yield too, and a served registry reports it', async () => {
    const tools = new Tools();
    tools.action({ name: 'local', description: 'Streams progress.', params: Type.Object({}), effects: [] }, async function* () {
      yield new ToolChunk({ metadata: { [MCP_PROGRESS]: { progress: 5, total: 10 } } });
      yield 'done';
    });
    const front = new McpServer({ name: 'front', version: '1.0.0' });
    serveTools(front, tools);
    const client = await connectInMemory(front);
    const messages: Array<string | undefined> = [];
    const result = await client.callTool({ name: 'local', arguments: {} }, undefined, { onprogress: (p) => messages.push(p.message) });
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(messages).toEqual(['Running local...', '5/10', 'done']);
  });
});
