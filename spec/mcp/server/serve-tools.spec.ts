/**
 * `serveTools` with the official SDK on both sides: a real `McpServer` the test owns, a real `Client` over
 * `InMemoryTransport`, which parses every message with the SDK's schemas.
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
  type ElicitResult,
  type LoggingMessageNotification,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { Type } from 'typebox';
import { z } from 'zod';
import { Action, Availability, Inject, ToolChunk, ToolContext, Tools } from '../../../lib';
import { mcpListTools } from '../../../lib/providers/mcp';
import { PermissionBehavior, PermissionEngine } from '../../../lib/permissions';
import { McpRequest, McpServerError, serveTools } from '../../../lib/mcp';

const quiet = { warn: () => undefined, error: () => undefined };

class Shop {
  calls: string[] = [];
  lastSignal: AbortSignal | undefined;

  @Action('Get an order.', { params: Type.Object({ id: Type.String() }), returns: Type.Object({ id: Type.String(), total: Type.Number() }), effects: [], title: 'Get order', meta: { 'example.com/v': 1 } })
  getOrder({ id }: { id: string }): { id: string; total: number } {
    return { id, total: 5 };
  }

  @Action('Refund an order.', { params: Type.Object({ id: Type.String() }), requiresApproval: true })
  refund({ id }: { id: string }): string {
    this.calls.push(`refund ${id}`);
    return `refunded ${id}`;
  }

  @Action('Wait until cancelled.', { effects: [] })
  async wait(@Inject(AbortSignal) signal: AbortSignal): Promise<string> {
    this.lastSignal = signal;
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    return 'stopped';
  }

  @Action('Stream lines.', { params: Type.Object({ n: Type.Integer() }), effects: [], status: 'Counting to {n}...' })
  async *count({ n }: { n: number }): AsyncGenerator<ToolChunk> {
    for (let i = 1; i <= n; i++) yield ToolChunk.text(`line ${i}\n`);
  }

  @Action('Log at every level.', { effects: [] })
  async chatty(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    await mcp.log('debug', 'a debug line');
    await mcp.log('info', { step: 1 }, 'shop');
    await mcp.log('error', 'an error line');
    return 'done';
  }

  @Action('Report progress by hand.', { effects: [] })
  async manual(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    await mcp.progress(10, 20, 'half');
    await mcp.progress(5, 20, 'backwards');
    await mcp.progress(20, 20);
    return `token ${String(mcp.progressToken)}, session ${String(mcp.sessionId)}, auth ${String(mcp.authInfo)}, id ${typeof mcp.requestId}, signal ${mcp.signal.aborted}`;
  }

  @Action('Ask the client model.', { params: Type.Object({ prompt: Type.String() }), effects: [] })
  async ask({ prompt }: { prompt: string }, @Inject(McpRequest) mcp: McpRequest): Promise<string> {
    const answer = await mcp.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 10 });
    return answer.content.type === 'text' ? answer.content.text : '?';
  }

  @Action('Approval check that throws.', { params: Type.Object({ id: Type.String() }), requiresApproval: (): boolean => {
    throw new Error('broken check');
  } })
  fragile({ id }: { id: string }): string {
    this.calls.push(`fragile ${id}`);
    return id;
  }

  @Action('Whether an MCP request is injected.', { effects: [] })
  where(@Inject(McpRequest, { optional: true }) mcp?: McpRequest): string {
    return mcp === undefined ? 'outside MCP' : 'inside MCP';
  }
}

interface Setup {
  server: McpServer;
  client: Client;
  tools: Tools;
  shop: Shop;
  listChanged: jest.Mock;
}

async function setup(options: { elicit?: (message: string) => ElicitResult; engine?: PermissionEngine; native?: boolean; tools?: Tools; connect?: boolean } = {}): Promise<Setup> {
  const shop = new Shop();
  const tools = options.tools ?? new Tools({ logger: quiet }).register(shop);
  const server = new McpServer({ name: 'shop', version: '1.0.0' });
  if (options.native !== false) {
    server.registerTool('native_echo', { description: 'Echo (zod).', inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text: `echo ${text}` }] }));
  }
  serveTools(server, tools, { permissions: options.engine });
  const client = new Client({ name: 'test', version: '1.0.0' }, options.elicit ? { capabilities: { elicitation: { form: {} } } } : {});
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params.message));
  }
  const listChanged = jest.fn();
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => listChanged());
  if (options.connect !== false) {
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    await client.connect(b);
  }
  return { server, client, tools, shop, listChanged };
}

const text = (result: unknown) => ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? '');
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('serveTools: a Tools registry on an McpServer the user owns', () => {
  it('lists the registry tools exactly as mcpFormat renders them, beside a native zod tool, and calls both', async () => {
    const { client, tools } = await setup();
    const listed = (await client.listTools()).tools;
    expect(listed.map((t) => t.name)).toEqual(['ask', 'chatty', 'count', 'fragile', 'getOrder', 'manual', 'native_echo', 'refund', 'wait', 'where']);
    const ours = mcpListTools(tools).tools;
    for (const entry of ours) {
      const served = listed.find((t) => t.name === entry.name)!;
      expect(served.inputSchema).toEqual(entry.inputSchema);
      expect(served.outputSchema).toEqual(entry.outputSchema);
      expect(served.annotations).toEqual(entry.annotations);
      expect(served.description).toBe(entry.description);
      expect(served.title).toBe(entry.title);
      expect(served._meta).toEqual(entry._meta);
    }
    expect(listed.find((t) => t.name === 'getOrder')).toMatchObject({ title: 'Get order', _meta: { 'example.com/v': 1 }, outputSchema: { type: 'object', required: ['id', 'total'] }, annotations: { readOnlyHint: true } });
    expect(listed.find((t) => t.name === 'refund')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(await client.callTool({ name: 'getOrder', arguments: { id: 'o-1' } })).toEqual({ content: [{ type: 'text', text: '{"id":"o-1","total":5}' }], structuredContent: { id: 'o-1', total: 5 }, isError: false });
    expect(text(await client.callTool({ name: 'native_echo', arguments: { text: 'hi' } }))).toBe('echo hi');
    await client.close();
  });

  it('answers invalid arguments with an isError result written for the model', async () => {
    const { client } = await setup();
    const invalid = await client.callTool({ name: 'getOrder', arguments: { id: 7 } });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toContain('id');
    await client.close();
  });

  it("answers an unknown name with JSON-RPC error -32602 carrying the registry's message, not the SDK's", async () => {
    const { client, tools } = await setup();
    const expected = (await tools.execute('nope', {})).error!;
    expect(expected).toMatch(/^Unknown tool 'nope'\. Available: .*getOrder/);
    const refusal = client.callTool({ name: 'nope', arguments: {} });
    await expect(refusal).rejects.toMatchObject({ code: -32602, message: `MCP error -32602: ${expected}` });
    await expect(refusal).rejects.not.toThrow(/not found/);
    // A native tool and a registry tool still go to their handlers.
    expect(text(await client.callTool({ name: 'native_echo', arguments: { text: 'hi' } }))).toBe('echo hi');
    expect(text(await client.callTool({ name: 'getOrder', arguments: { id: 'o-1' } }))).toBe('{"id":"o-1","total":5}');
    await client.close();
  });

  it("answers a call of a tool in an inactive group with the registry's text for it", async () => {
    const tools = new Tools({ logger: quiet });
    tools.action({ name: 'admin_tool', description: 'Admin only.', params: Type.Object({}), effects: [], group: 'admin' }, () => 'ok');
    tools.action({ name: 'open_tool', description: 'Open.', params: Type.Object({}), effects: [] }, () => 'ok');
    tools.createGroup('admin', 'Administration tools.', { active: false });
    const { client } = await setup({ tools, native: false });
    const inactive = (await tools.execute('admin_tool', {})).error!;
    await expect(client.callTool({ name: 'admin_tool', arguments: {} })).rejects.toMatchObject({ code: -32602, message: `MCP error -32602: ${inactive}` });
    await expect(client.callTool({ name: 'gone', arguments: {} })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool 'gone'. Available: ") as string });
    await client.close();
  });

  it('refuses a registry tool whose name a native tool already has, with a coded error', async () => {
    const server = new McpServer({ name: 'x', version: '1' });
    server.registerTool('getOrder', { description: 'native' }, () => ({ content: [] }));
    const attempt = () => serveTools(server, new Tools({ logger: quiet }).register(new Shop()));
    expect(attempt).toThrow(McpServerError);
    expect(attempt).toThrow(expect.objectContaining({ code: 'MCP_TOOL_NAME_TAKEN' }) as Error);
  });

  it('asks the client model through McpRequest.createMessage', async () => {
    const { server, tools } = await setup({ native: false, connect: false });
    const client = new Client({ name: 'sampler', version: '1' }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, (request) => ({
      role: 'assistant',
      model: 'test-model',
      content: { type: 'text', text: `echo: ${(request.params.messages[0]!.content as { text: string }).text}` },
    }));
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    await client.connect(b);
    expect(text(await client.callTool({ name: 'ask', arguments: { prompt: 'hi' } }))).toBe('echo: hi');
    expect(tools.get('ask')).toBeDefined();
    await client.close();
  });

  it('fails closed when a tool\'s approval check throws: the user is asked, and nothing runs without an answer', async () => {
    const { client, shop } = await setup();
    const result = await client.callTool({ name: 'fragile', arguments: { id: 'x' } });
    expect(text(result)).toContain('does not support elicitation');
    expect(shop.calls).toEqual([]);
    await client.close();
  });

  it('logs and skips a tool registered later under a name a native tool has; the others are still served', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const { client, server, tools } = await setup();
      server.registerTool('taken', { description: 'native' }, () => ({ content: [{ type: 'text', text: 'native taken' }] }));
      tools.action({ name: 'taken', description: 'Ours.', params: Type.Object({}), effects: [] }, () => 'ours');
      tools.action({ name: 'free', description: 'Ours too.', params: Type.Object({}), effects: [] }, () => 'free');
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("Tool 'taken' is already registered on this McpServer"));
      expect(text(await client.callTool({ name: 'taken', arguments: {} }))).toBe('native taken');
      expect(text(await client.callTool({ name: 'free', arguments: {} }))).toBe('free');
      await client.close();
    } finally {
      warn.mockRestore();
    }
  });

  it('gives an optional McpRequest only inside MCP', async () => {
    const { client, tools } = await setup();
    expect(text(await client.callTool({ name: 'where', arguments: {} }))).toBe('inside MCP');
    expect((await tools.execute('where', {})).result).toBe('outside MCP');
    await client.close();
  });

  describe('listing changes', () => {
    it('sends tools/list_changed on registration, group switches (host or reset_tools), setContext; not for calls', async () => {
      const tools = new Tools({ logger: quiet }).register(new Shop());
      tools.action({ name: 'admin_tool', description: 'Admin only.', params: Type.Object({}), effects: [], group: 'admin' }, () => 'ok');
      tools.action({ name: 'needs_flag', description: 'Needs a flag.', params: Type.Object({}), effects: [], availableWhen: new Availability((context: ToolContext) => context.has(Flag)) }, () => 'ok');
      tools.createGroup('admin', 'Administration tools.');
      const { client, listChanged } = await setup({ tools });
      const names = async () => (await client.listTools()).tools.map((t) => t.name);
      expect(await names()).not.toContain('admin_tool');
      expect(await names()).not.toContain('needs_flag');

      await client.callTool({ name: 'getOrder', arguments: { id: 'a' } });
      await settle();
      expect(listChanged).not.toHaveBeenCalled();

      tools.setGroupsActive({ admin: true });
      await settle();
      expect(listChanged).toHaveBeenCalledTimes(1);
      expect(await names()).toContain('admin_tool');

      await client.callTool({ name: 'reset_tools', arguments: { admin: false } });
      await settle();
      expect(listChanged).toHaveBeenCalledTimes(2);
      expect(await names()).not.toContain('admin_tool');

      tools.setContext(new ToolContext(new Flag()));
      await settle();
      expect(listChanged).toHaveBeenCalledTimes(3);
      expect(await names()).toContain('needs_flag');

      tools.action({ name: 'later', description: 'Registered after connect.', params: Type.Object({}), effects: [] }, () => 'later');
      await settle();
      expect(listChanged).toHaveBeenCalledTimes(4);
      expect(text(await client.callTool({ name: 'later', arguments: {} }))).toBe('later');

      tools.setGroupsActive({ admin: false }); // already off: no change
      await settle();
      expect(listChanged).toHaveBeenCalledTimes(4);
      await client.close();
    });

    it('close() takes the registry tools off the server and stops following the registry; native tools stay', async () => {
      const shop = new Shop();
      const tools = new Tools({ logger: quiet }).register(shop);
      const server = new McpServer({ name: 'x', version: '1' });
      server.registerTool('native_echo', { description: 'Echo.' }, () => ({ content: [{ type: 'text', text: 'echo' }] }));
      const served = serveTools(server, tools);
      const client = new Client({ name: 't', version: '1' });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await server.connect(a);
      await client.connect(b);
      served.close();
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['native_echo']);
      tools.action({ name: 'after_close', description: 'x', params: Type.Object({}), effects: [] }, () => 'x');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['native_echo']);
      await client.close();
    });
  });

  describe('the call context', () => {
    it('aborts the tool signal when the client cancels the request', async () => {
      const { client, shop } = await setup();
      const controller = new AbortController();
      const call = client.callTool({ name: 'wait', arguments: {} }, undefined, { signal: controller.signal });
      await settle();
      expect(shop.lastSignal?.aborted).toBe(false);
      controller.abort();
      await expect(call).rejects.toThrow();
      await settle();
      expect(shop.lastSignal?.aborted).toBe(true);
      await client.close();
    });

    it('turns the status line and streamed text into progress notifications when the client sent a progress token', async () => {
      const { client } = await setup();
      const progress: Progress[] = [];
      const result = await client.callTool({ name: 'count', arguments: { n: 3 } }, CallToolResultSchema, { onprogress: (p) => progress.push(p) });
      expect(text(result)).toBe('line 1\nline 2\nline 3\n');
      expect(progress.map((p) => [p.progress, p.message])).toEqual([
        [0, 'Counting to 3...'],
        [1, 'line 1\n'],
        [2, 'line 2\n'],
        [3, 'line 3\n'],
      ]);
      await client.close();
    });

    it('sends no progress without a token; McpRequest.progress drops values that do not increase', async () => {
      const { client } = await setup();
      expect(text(await client.callTool({ name: 'manual', arguments: {} }))).toBe('token undefined, session undefined, auth undefined, id number, signal false');
      const progress: Progress[] = [];
      await client.callTool({ name: 'manual', arguments: {} }, CallToolResultSchema, { onprogress: (p) => progress.push(p) });
      expect(progress.map((p) => [p.progress, p.total, p.message])).toEqual([
        [0, undefined, 'Running manual...'],
        [10, 20, 'half'],
        [20, 20, undefined],
      ]);
      await client.close();
    });

    it('sends tool logs at or above the level the client set', async () => {
      const { client } = await setup();
      const logs: Array<LoggingMessageNotification['params']> = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
      await client.callTool({ name: 'chatty', arguments: {} });
      await settle();
      expect(logs.map((l) => l.level)).toEqual(['debug', 'info', 'error']);
      expect(logs[1]).toEqual({ level: 'info', data: { step: 1 }, logger: 'shop' });
      logs.length = 0;
      await client.setLoggingLevel('warning');
      await client.callTool({ name: 'chatty', arguments: {} });
      await settle();
      expect(logs).toEqual([{ level: 'error', data: 'an error line' }]);
      await client.close();
    });
  });

  describe('approval', () => {
    it('asks the user through elicitation: accept runs the call, decline and cancel give the declined result', async () => {
      const answers: ElicitResult['action'][] = ['accept', 'decline', 'cancel'];
      const asked: string[] = [];
      const { client, shop } = await setup({ elicit: (message) => (asked.push(message), { action: answers.shift()! }) });
      expect(text(await client.callTool({ name: 'refund', arguments: { id: 'o-1' } }))).toBe('refunded o-1');
      const declined = await client.callTool({ name: 'refund', arguments: { id: 'o-2' } });
      expect(declined.isError).toBe(true);
      expect(text(declined)).toMatch(/^The user declined to run tool 'refund'/);
      expect(text(await client.callTool({ name: 'refund', arguments: { id: 'o-3' } }))).toMatch(/^The user declined to run tool 'refund'/);
      expect(shop.calls).toEqual(['refund o-1']);
      expect(asked[0]).toBe(`Allow tool 'refund' to run? Its arguments (12 characters of JSON):\n- "id": "o-1"`);
      expect(asked).toHaveLength(3);
      await client.close();
    });

    it('treats an elicitation that fails as a refusal', async () => {
      const { client, shop } = await setup({
        elicit: () => {
          throw new Error('UI crashed');
        },
      });
      expect(text(await client.callTool({ name: 'refund', arguments: { id: 'o-1' } }))).toMatch(/^The user declined/);
      expect(shop.calls).toEqual([]);
      await client.close();
    });

    it('fails with a clear result when the client cannot elicit, and runs nothing', async () => {
      const { client, shop } = await setup();
      const result = await client.callTool({ name: 'refund', arguments: { id: 'o-1' } });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('does not support elicitation');
      expect(shop.calls).toEqual([]);
      await client.close();
    });

    it('lets the permission engine decide first: deny without asking, allow without asking, ask through elicitation', async () => {
      const asked: string[] = [];
      const engine = new PermissionEngine();
      engine.addRules(['refund'], PermissionBehavior.DENY);
      const denied = await setup({ engine, elicit: (m) => (asked.push(m), { action: 'accept' }) });
      const result = await denied.client.callTool({ name: 'refund', arguments: { id: 'o-1' } });
      expect(text(result)).toMatch(/^Permission denied for tool 'refund'/);
      expect(asked).toEqual([]);
      expect(denied.shop.calls).toEqual([]);
      await denied.client.close();

      const allowing = new PermissionEngine();
      allowing.addRules(['refund'], PermissionBehavior.ALLOW);
      const allowed = await setup({ engine: allowing, elicit: (m) => (asked.push(m), { action: 'decline' }) });
      expect(text(await allowed.client.callTool({ name: 'refund', arguments: { id: 'o-2' } }))).toBe('refunded o-2');
      expect(asked).toEqual([]);
      await allowed.client.close();

      const asking = await setup({ engine: new PermissionEngine(), elicit: (m) => (asked.push(m), { action: 'accept' }) });
      expect(text(await asking.client.callTool({ name: 'refund', arguments: { id: 'o-3' } }))).toBe('refunded o-3');
      expect(text(await asking.client.callTool({ name: 'getOrder', arguments: { id: 'o-3' } }))).toContain('"total":5');
      expect(asked).toHaveLength(1);
      await asking.client.close();

      const noElicitation = await setup({ engine: new PermissionEngine() });
      expect(text(await noElicitation.client.callTool({ name: 'refund', arguments: { id: 'o-4' } }))).toContain('does not support elicitation');
      await noElicitation.client.close();
    });
  });
});

class Flag {}
