import { Type } from '@sinclair/typebox';
import { anthropicToolResult, anthropicToolResultMessage, anthropicToolUses } from '../../lib/providers/anthropic';
import {
  executeToolCalls,
  ToolDefinitionError,
  ToolSchemaFormat,
  Tools,
} from '../../lib';
import { geminiFunctionCalls, geminiFunctionResponse } from '../../lib/providers/gemini';
import { mcpCallTool } from '../../lib/providers/mcp';
import {
  openAIChatToolCalls,
  openAIChatToolMessage,
  openAIResponsesToolCalls,
  openAIResponsesToolOutput,
} from '../../lib/providers/openai';

const quietLogger = () => ({ warn: jest.fn(), error: jest.fn() });

describe('cases reported against other libraries', () => {
  it('1. { command: string[], workdir?: string } in strict mode: workdir required and string-or-null, object closed; null arrives absent', async () => {
    const tools = new Tools();
    const seen: unknown[] = [];
    tools.action({ name: 'shell', description: 'Run a command.', params: Type.Object({ command: Type.Array(Type.String()), workdir: Type.Optional(Type.String()) }) }, (params) => {
      seen.push(params);
      return 'ok';
    });
    const [entry] = tools.getSchema(ToolSchemaFormat.OPENAI_STRICT);
    expect(entry!.function.strict).toBe(true);
    expect(entry!.function.parameters).toEqual({
      type: 'object',
      properties: { command: { type: 'array', items: { type: 'string' } }, workdir: { type: ['string', 'null'] } },
      required: ['command', 'workdir'],
      additionalProperties: false,
    });
    const [call] = openAIChatToolCalls({ tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shell', arguments: '{"command":["ls"],"workdir":null}' } }] });
    expect((await tools.execute(call!.name, call!.args)).ok).toBe(true);
    expect(seen).toEqual([{ command: ['ls'] }]);
    expect(Object.prototype.hasOwnProperty.call(seen[0], 'workdir')).toBe(false);
  });

  it('2. an optional string stays string-or-null in strict mode, never widened', () => {
    const tools = new Tools();
    tools.action({ name: 'note', description: 'Note.', params: Type.Object({ text: Type.Optional(Type.String({ description: 'The text' })) }) }, () => 'ok');
    const [entry] = tools.getSchema(ToolSchemaFormat.OPENAI_RESPONSES_STRICT);
    expect(entry!.parameters.properties).toEqual({ text: { description: 'The text', type: ['string', 'null'] } });
  });

  it('3. a nested discriminated union in strict mode is anyOf (not oneOf) with every branch closed and fully required', () => {
    const tools = new Tools();
    const Circle = Type.Object({ kind: Type.Literal('circle'), radius: Type.Number() });
    const Rect = Type.Object({ kind: Type.Literal('rect'), width: Type.Number(), label: Type.Optional(Type.String()) });
    const params = Type.Object({ shape: Type.Unsafe({ oneOf: [Circle, Rect] }) });
    tools.action({ name: 'draw', description: 'Draw.', params }, () => 'ok');
    const shape = (tools.getSchema(ToolSchemaFormat.OPENAI_STRICT)[0]!.function.parameters.properties as Record<string, Record<string, unknown>>).shape!;
    expect(shape.oneOf).toBeUndefined();
    expect(shape.anyOf).toEqual([
      { type: 'object', properties: { kind: { type: 'string', const: 'circle' }, radius: { type: 'number' } }, required: ['kind', 'radius'], additionalProperties: false },
      { type: 'object', properties: { kind: { type: 'string', const: 'rect' }, width: { type: 'number' }, label: { type: ['string', 'null'] } }, required: ['kind', 'width', 'label'], additionalProperties: false },
    ]);
  });

  it('4. a params schema that is a union at the top level is refused at registration with a clear message', () => {
    const tools = new Tools();
    const params = Type.Union([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })]);
    expect(() => tools.action({ name: 'either', description: 'Either.', params: params as never }, () => 'ok')).toThrow(ToolDefinitionError);
    expect(() => tools.action({ name: 'either', description: 'Either.', params: params as never }, () => 'ok')).toThrow(/tool 'either': params must be an object schema .*wrap other shapes in a field/);
    expect(tools.list()).toEqual([]);
  });

  it('5. format: uri in strict mode leaves the wire schema, is named in the description and is still enforced locally', async () => {
    const tools = new Tools();
    tools.action({ name: 'fetch', description: 'Fetch.', params: Type.Object({ url: Type.String({ format: 'uri', description: 'What to fetch' }) }) }, ({ url }) => url);
    const url = (tools.getSchema(ToolSchemaFormat.OPENAI_STRICT)[0]!.function.parameters.properties as Record<string, unknown>).url;
    expect(url).toEqual({ description: 'What to fetch (format: uri)', type: 'string' });
    const bad = await tools.execute('fetch', '{"url":"not a uri"}');
    expect(bad.ok).toBe(false);
    expect(bad.error).toMatch(/url: must match format "uri"/);
    expect((await tools.execute('fetch', '{"url":"https://example.com/x"}')).result).toBe('https://example.com/x');
  });

  it('6. a date is a date-time string; a tool one format cannot express leaves only itself out of that listing', () => {
    const logger = quietLogger();
    const tools = new Tools({ logger });
    tools.action({ name: 'remind', description: 'Remind.', params: Type.Object({ at: Type.String({ format: 'date-time' }) }) }, () => 'ok');
    const Tree = Type.Recursive((This) => Type.Object({ name: Type.String(), children: Type.Array(This) }));
    tools.action({ name: 'tree', description: 'Tree.', params: Type.Object({ root: Tree }) }, () => 'ok');
    tools.action({ name: 'ping', description: 'Ping.' }, () => 'pong');
    expect(() => tools.action({ name: 'when', description: 'When.', params: Type.Object({ at: Type.Date() }) }, () => 'ok')).toThrow(/Type\.Date\(\).*Type\.String\(\{ format: 'date-time' \}\)/);
    const gemini = tools.getSchema(ToolSchemaFormat.GEMINI);
    expect(gemini.map((d) => d.name)).toEqual(['remind', 'ping']);
    expect(gemini[0]!.parameters.properties!.at).toEqual({ type: 'STRING', format: 'date-time' });
    expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/Tool 'tree' is left out of the gemini listing: tool 'tree': .*#\/properties\/root.*recursive/));
    // Anthropic strict tool use takes no recursive schema either.
    expect(tools.getSchema(ToolSchemaFormat.ANTHROPIC_STRICT).map((d) => d.name)).toEqual(['remind', 'ping']);
    const recursionFree = new Set<unknown>([ToolSchemaFormat.GEMINI, ToolSchemaFormat.ANTHROPIC_STRICT]);
    for (const format of Object.values(ToolSchemaFormat).filter((f) => !recursionFree.has(f))) expect(tools.getSchema(format)).toHaveLength(3);
  });

  it('7. a tool with no parameters is { type: "object", properties: {} } in every format', () => {
    const tools = new Tools();
    tools.action({ name: 'now', description: 'The time.' }, () => 'noon');
    const schemas = [
      tools.getSchema(ToolSchemaFormat.OPENAI)[0]!.function.parameters,
      tools.getSchema(ToolSchemaFormat.OPENAI_STRICT)[0]!.function.parameters,
      tools.getSchema(ToolSchemaFormat.OPENAI_RESPONSES)[0]!.parameters,
      tools.getSchema(ToolSchemaFormat.OPENAI_RESPONSES_STRICT)[0]!.parameters,
      tools.getSchema(ToolSchemaFormat.ANTHROPIC)[0]!.input_schema,
      tools.getSchema(ToolSchemaFormat.MCP)[0]!.inputSchema,
    ];
    for (const schema of schemas) expect(schema).toMatchObject({ type: 'object', properties: {} });
    expect(tools.getSchema(ToolSchemaFormat.GEMINI)[0]!.parameters).toEqual({ type: 'OBJECT', properties: {} });
  });

  it('8. a declined approval produces a tool result for that call in every provider format', async () => {
    const tools = new Tools();
    const run = jest.fn(() => 'deleted');
    tools.action({ name: 'rm', description: 'Delete a file.', params: Type.Object({ path: Type.String() }), requiresApproval: true }, run);
    tools.action({ name: 'echo', description: 'Echo.', params: Type.Object({ text: Type.String() }) }, ({ text }) => text);
    const approve = jest.fn(() => false);

    const chat = openAIChatToolCalls({
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'rm', arguments: '{"path":"a"}' } },
        { id: 'c2', type: 'function', function: { name: 'echo', arguments: '{"text":"hi"}' } },
      ],
    });
    const chatOut = await executeToolCalls(tools, chat, { approve });
    expect(chatOut.map(({ call, result }) => openAIChatToolMessage(call.id, result))).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: expect.stringMatching(/^Error: The user declined to run tool 'rm'/) },
      { role: 'tool', tool_call_id: 'c2', content: 'hi' },
    ]);

    const responses = openAIResponsesToolCalls({ output: [{ type: 'function_call', call_id: 'r1', name: 'rm', arguments: '{"path":"a"}' } as { type: string }] });
    const [responsesOut] = await executeToolCalls(tools, responses, { approve });
    expect(openAIResponsesToolOutput(responsesOut!.call.id, responsesOut!.result)).toEqual({ type: 'function_call_output', call_id: 'r1', output: expect.stringMatching(/^Error: The user declined/) });

    const uses = anthropicToolUses({ content: [{ type: 'text' }, { type: 'tool_use', id: 'toolu_1', name: 'rm', input: { path: 'a' } }] });
    const anthropicOut = await executeToolCalls(tools, uses, { approve });
    expect(anthropicToolResultMessage(anthropicOut)).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: expect.stringMatching(/declined/), is_error: true }] });

    const calls = geminiFunctionCalls({ candidates: [{ content: { parts: [{ functionCall: { id: 'g1', name: 'rm', args: { path: 'a' } } }] } }] });
    const [geminiOut] = await executeToolCalls(tools, calls, { approve });
    expect(geminiFunctionResponse(geminiOut!.call, geminiOut!.result)).toEqual({ functionResponse: { id: 'g1', name: 'rm', response: { error: expect.stringMatching(/declined/) } } });

    const mcp = await mcpCallTool(tools, { name: 'rm', arguments: { path: 'a' } }, { approve });
    expect(mcp).toEqual({ content: [{ type: 'text', text: expect.stringMatching(/declined/) }], isError: true });

    expect(run).not.toHaveBeenCalled();
    expect(approve).toHaveBeenCalledTimes(5);
    expect(anthropicToolResult('x', tools.declined('rm')).is_error).toBe(true);
  });
});
