/**
 * `returns` declares a tool's output schema: successful results are validated against it (a mismatch is a failed
 * result with a generic message, logged as the tool's bug), MCP lists it as `outputSchema` and results carry
 * `structuredContent` beside the JSON text; other providers get the JSON text.
 */
import 'reflect-metadata';
import type { CallToolResult, Tool as McpSdkTool } from '@modelcontextprotocol/sdk/types.js';
import { Type, type Static } from '@sinclair/typebox';
import {
  Action,
  ActionResult,
  FunctionTool,
  ToolChunk,
  ToolBase,
  ToolDefinitionError,
  ToolResultState,
  Tools,
  ToolSchemaFormat,
} from '../../lib';
import { anthropicToolResult } from '../../lib/providers/anthropic';
import { mcpCallTool, mcpListTools, mcpToolResult } from '../../lib/providers/mcp';
import { openAIChatToolMessage } from '../../lib/providers/openai';
import { PermissionDecision } from '../../lib/permissions';

const Order = Type.Object({ id: Type.String(), total: Type.Number({ minimum: 0 }) }, { additionalProperties: false });
const Params = Type.Object({ id: Type.String() });

function logger() {
  return { warn: jest.fn(), error: jest.fn(), info: jest.fn(), debug: jest.fn() };
}

describe('returns: validation of successful results', () => {
  function registry(body: (p: { id: string }) => unknown) {
    const log = logger();
    const tools = new Tools({ logger: log });
    tools.action({ name: 'get_order', description: 'Get an order.', params: Params, returns: Order }, body);
    return { tools, log };
  }

  it.each([
    ['a plain value', () => ({ id: 'o-1', total: 5 })],
    ['a promise', async () => ({ id: 'o-1', total: 5 })],
    ['an ActionResult.success', () => ActionResult.success({ id: 'o-1', total: 5 })],
  ])('%s that matches passes unchanged', async (_name, body) => {
    const { tools, log } = registry(body);
    const result = await tools.execute('get_order', { id: 'o-1' });
    expect(result.toJSON()).toEqual({ ok: true, result: { id: 'o-1', total: 5 } });
    expect(log.warn).not.toHaveBeenCalled();
  });

  it.each([
    ['a wrong type', () => ({ id: 'o-1', total: 'five' })],
    ['a missing field', () => ({ id: 'o-1' })],
    ['an extra field', () => ({ id: 'o-1', total: 5, secret: 'x' })],
    ['a violated constraint', async () => ({ id: 'o-1', total: -1 })],
    ['undefined', () => undefined],
    ['a string', () => 'o-1'],
    ['an ActionResult.success of the wrong shape', () => ActionResult.success([1])],
  ])('%s fails the call with a generic message and logs the details as the tool bug', async (_name, body) => {
    const { tools, log } = registry(body);
    const result = await tools.execute('get_order', { id: 'o-1' });
    expect(result.ok).toBe(false);
    expect(result.error).toBe("Tool 'get_order' failed: its result does not match the output schema it declares (a bug in the tool, not in your arguments).");
    expect(log.warn).toHaveBeenCalledTimes(1);
    const [, details] = log.warn.mock.calls[0] as [string, { stack?: string }];
    expect(details.stack).toMatch(/INVALID_TOOL_OUTPUT|does not match/);
    expect(details.stack).toMatch(/- \(arguments\)|- total|- secret|- \(arguments\)/);
  });

  it('a failed result and streamed output are not checked', async () => {
    expect((await registry(() => ActionResult.fail('No order o-9.')).tools.execute('get_order', { id: 'o-9' })).error).toBe('No order o-9.');
    const streamed = registry(async function* () {
      yield ToolChunk.text('not an order', { state: ToolResultState.SUCCESS });
    });
    expect((await streamed.tools.execute('get_order', { id: 'o-1' })).toJSON()).toEqual({ ok: true, result: 'not an order' });
  });

  it('checks the JSON form: a Date is its string', async () => {
    const tools = new Tools({ logger: logger() });
    tools.action({ name: 'now', description: 'Now.', params: Type.Object({}), returns: Type.Object({ at: Type.String({ format: 'date-time' }) }) }, () => ({ at: new Date(0) }));
    expect((await tools.execute('now', {})).ok).toBe(true);
  });

  it('works on @Action methods and FunctionTool', async () => {
    class Orders {
      @Action('Get an order.', { params: Params, returns: Order })
      get(params: Static<typeof Params>) {
        return { id: params.id, total: params.id === 'bad' ? 'x' : 1 };
      }
    }
    const tools = new Tools({ logger: logger() });
    tools.register(new Orders());
    expect((await tools.execute('get', { id: 'o-1' })).ok).toBe(true);
    expect((await tools.execute('get', { id: 'bad' })).ok).toBe(false);
    const fn = new FunctionTool(({ id }: { id: string }) => ({ id }), { name: 'fn', description: 'Fn.', params: Params, returns: Order });
    tools.register(fn);
    expect((await tools.execute('fn', { id: 'o-1' })).ok).toBe(false);
    expect(fn.extras.outputSchema).toEqual(JSON.parse(JSON.stringify(Order)));
  });

  it('works on ToolBase tools, with their listing options', async () => {
    class Lookup extends ToolBase<typeof Params> {
      constructor() {
        super({ name: 'lookup', description: 'Look up.', inputSchema: Params, returns: Order, title: 'Lookup', examples: [{ id: 'o-1' }] });
      }
      checkPermissions() {
        return PermissionDecision.allow('read');
      }
      override async call({ id }: Static<typeof Params>) {
        return id === 'bad' ? { id } : { id, total: 1 };
      }
    }
    const tools = new Tools({ logger: logger() });
    tools.register(new Lookup());
    expect((await tools.execute('lookup', { id: 'o-1' })).ok).toBe(true);
    expect((await tools.execute('lookup', { id: 'bad' })).error).toMatch(/does not match the output schema/);
    expect(tools.get('lookup')!.extras).toMatchObject({ title: 'Lookup', examples: [{ id: 'o-1' }] });
  });

  it('refuses a returns value that is not JSON Schema at registration', () => {
    const tools = new Tools({ logger: logger() });
    expect(() => tools.action({ name: 'bad', description: 'Bad.', returns: { type: 'objekt' } }, () => 1)).toThrow(ToolDefinitionError);
    expect(() => tools.action({ name: 'bad2', description: 'Bad.', returns: { type: 'object', properties: { a: { type: 'string', minLenght: 1 } } } }, () => 1)).toThrow(/bad2/);
  });
});

describe('returns: MCP outputSchema and structuredContent', () => {
  it('lists an object returns schema as outputSchema and sends structuredContent with the JSON text', async () => {
    const tools = new Tools({ logger: logger() });
    tools.action({ name: 'get_order', description: 'Get an order.', params: Params, returns: Order }, ({ id }) => ({ id, total: 5 }));
    tools.action({ name: 'list_ids', description: 'List ids.', params: Type.Object({}), returns: Type.Array(Type.String()) }, () => ['a']);
    const listed = mcpListTools(tools).tools satisfies McpSdkTool[];
    expect(listed[0]).toMatchObject({ name: 'get_order', outputSchema: { type: 'object', properties: { id: { type: 'string' }, total: { type: 'number', minimum: 0 } }, required: ['id', 'total'], additionalProperties: false } });
    expect(listed[1]).not.toHaveProperty('outputSchema');
    const result = (await mcpCallTool(tools, { name: 'get_order', arguments: { id: 'o-1' } })) satisfies CallToolResult;
    expect(result).toEqual({ content: [{ type: 'text', text: '{"id":"o-1","total":5}' }], structuredContent: { id: 'o-1', total: 5 }, isError: false });
    expect(await mcpCallTool(tools, { name: 'list_ids', arguments: {} })).toEqual({ content: [{ type: 'text', text: '["a"]' }], isError: false });
  });

  it('structuredContent is the JSON form of a class instance, and other providers get the JSON text', () => {
    class Point {
      constructor(readonly x: number) {}
    }
    const result = ActionResult.success(new Point(1));
    expect(mcpToolResult(result).structuredContent).toEqual({ x: 1 });
    expect(openAIChatToolMessage('c', result).content).toBe('{"x":1}');
    expect(anthropicToolResult('t', result).content).toBe('{"x":1}');
    expect(mcpToolResult(ActionResult.success({ toJSON: () => 'text' }))).not.toHaveProperty('structuredContent');
  });

  it('does not change other formats', () => {
    const tools = new Tools({ logger: logger() });
    tools.action({ name: 'get_order', description: 'Get an order.', params: Params, returns: Order }, ({ id }) => ({ id, total: 5 }));
    expect(JSON.stringify(tools.getSchema(ToolSchemaFormat.OPENAI))).not.toContain('total');
    expect(JSON.stringify(tools.getSchema(ToolSchemaFormat.ANTHROPIC))).not.toContain('total');
    expect(JSON.stringify(tools.getSchema(ToolSchemaFormat.GEMINI))).not.toContain('total');
  });
});
