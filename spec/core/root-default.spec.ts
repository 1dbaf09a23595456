/**
 * A root `default` on params (zod's `z.object({...}).default({})`): accepted at registration, applied when a call sends
 * no arguments, never sent to a provider; an MCP server's tool with one is imported, not dropped.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Type } from 'typebox';
import { z } from 'zod';
import { ToolDefinitionError, ToolSchemaFormat, Tools } from '../../lib';
import { McpClientTools } from '../../lib/mcp';
import { connectInMemory, recordingLogger } from '../mcp/client/support';

const echo = (p: unknown) => p;

describe('a root default on params', () => {
  it('is accepted at registration for zod, TypeBox and plain JSON Schema, in strict mode too', () => {
    const tools = new Tools({ formats: [ToolSchemaFormat.OPENAI_STRICT, ToolSchemaFormat.ANTHROPIC_STRICT, ToolSchemaFormat.GEMINI, ToolSchemaFormat.MCP] });
    tools.action({ name: 'zod_book', description: 'Book.', params: z.object({ nights: z.number().default(1) }).default({ nights: 2 }) }, echo);
    tools.action({ name: 'tb_book', description: 'Book.', params: Type.Object({ nights: Type.Optional(Type.Number()) }, { default: {} }) }, echo);
    tools.action({ name: 'json_book', description: 'Book.', params: { type: 'object', properties: { nights: { type: 'number' } }, default: { nights: 4 } } as never, strict: false }, echo);
    expect(tools.list().map((t) => t.name)).toEqual(['zod_book', 'tb_book', 'json_book']);
    // Providers get the schema without it (Ajv and strict modes never apply one at the root).
    for (const format of [ToolSchemaFormat.OPENAI_STRICT, ToolSchemaFormat.OPENAI, ToolSchemaFormat.ANTHROPIC, ToolSchemaFormat.GEMINI, ToolSchemaFormat.MCP]) {
      expect(JSON.stringify(tools.getSchema(format))).not.toMatch(/"default":\{/);
    }
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['blank JSON text', ' '],
  ])('applies when the call sends no arguments (%s), field defaults after it', async (_label, args) => {
    const tools = new Tools();
    tools.action({ name: 'book', description: 'Book.', params: z.object({ nights: z.number().default(1), guests: z.number().default(1) }).default({ nights: 2 } as never) }, echo);
    expect(await tools.execute('book', args)).toMatchObject({ ok: true, result: { nights: 2, guests: 1 } });
  });

  it('does not apply when arguments are sent, even empty ones; the default is never shared between calls', async () => {
    const tools = new Tools();
    tools.action({ name: 'book', description: 'Book.', params: z.object({ nights: z.number().default(1), tags: z.array(z.string()).default([]) }).default({ nights: 2, tags: [] }) }, (p) => {
      p!.tags!.push('x');
      return p;
    });
    expect(await tools.execute('book', {})).toMatchObject({ result: { nights: 1, tags: ['x'] } });
    expect(await tools.execute('book', '{}')).toMatchObject({ result: { nights: 1 } });
    expect(await tools.execute('book', undefined)).toMatchObject({ result: { nights: 2, tags: ['x'] } });
    expect(await tools.execute('book', undefined)).toMatchObject({ result: { nights: 2, tags: ['x'] } });
  });

  it('without a root default, absent arguments still fail as before', async () => {
    const tools = new Tools();
    tools.action({ name: 'book', description: 'Book.', params: z.object({ nights: z.number().default(1) }) }, echo);
    expect(await tools.execute('book', undefined)).toMatchObject({ ok: false, error: expect.stringContaining('must be a JSON object') });
    expect(await tools.execute('book', '')).toMatchObject({ ok: true, result: { nights: 1 } });
  });

  it.each([
    ['not an object', { type: 'object', properties: { n: { type: 'number' } }, default: 3 }, /root default is a number; .* must be an object/],
    ['an array', { type: 'object', properties: { n: { type: 'number' } }, default: [] }, /root default is an array/],
    ['null', { type: 'object', properties: { n: { type: 'number' } }, default: null }, /root default is null/],
    ['invalid for the schema', { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], default: {} }, /root default does not match the schema: - n: is required but missing. Fix the default/],
  ])('is refused at registration, saying how to fix it, when it is %s', (_label, params, message) => {
    expect(() => new Tools().action({ name: 'bad', description: 'Bad.', params: params as never, strict: false }, echo)).toThrow(ToolDefinitionError);
    expect(() => new Tools().action({ name: 'bad', description: 'Bad.', params: params as never, strict: false }, echo)).toThrow(message);
  });

  it("an MCP server's tool with a root default is imported (not dropped) and gets it when called without arguments", async () => {
    const server = new Server({ name: 'root-default', version: '1.0.0' }, { capabilities: { tools: {} } });
    const received: unknown[] = [];
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: 'book', description: 'Book.', inputSchema: { type: 'object', properties: { nights: { type: 'number' } }, default: { nights: 3 } } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      received.push(request.params.arguments);
      return { content: [{ type: 'text', text: 'booked' }] };
    });
    const tools = new Tools();
    const logger = recordingLogger();
    const mcp = await McpClientTools.connect(tools, { name: 'hotel', client: await connectInMemory(server as never), logger });
    try {
      expect(logger.lines).toEqual([]);
      const [name] = tools.list().map((t) => t.name);
      expect(name).toMatch(/book/);
      expect(await tools.execute(name!, undefined)).toMatchObject({ ok: true });
      expect(received).toEqual([{ nights: 3 }]);
    } finally {
      await mcp.close();
    }
  });
});
