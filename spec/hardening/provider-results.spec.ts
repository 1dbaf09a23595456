import { Type } from '@sinclair/typebox';
import { ActionResult, Tools } from '../../lib';
import { anthropicToolResult, anthropicToolUses, type AnthropicMessage } from '../../lib/providers/anthropic';
import { geminiFunctionCalls, geminiFunctionResponse } from '../../lib/providers/gemini';
import { mcpCallTool, mcpToolResult } from '../../lib/providers/mcp';
import {
  openAIChatToolCalls,
  openAIChatToolMessage,
  openAIResponsesToolCalls,
  openAIResponsesToolOutput,
  type OpenAIChatAssistantMessage,
} from '../../lib/providers/openai';

function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = { a: 1 };
  value.self = value;
  return value;
}

const builders = {
  openai: (result: ActionResult) => openAIChatToolMessage('c', result).content,
  responses: (result: ActionResult) => openAIResponsesToolOutput('c', result).output,
  anthropic: (result: ActionResult) => anthropicToolResult('c', result).content,
  mcp: (result: ActionResult) => (mcpToolResult(result).content[0] as { text: string }).text,
  gemini: (result: ActionResult) => JSON.stringify(geminiFunctionResponse({ id: 'c', name: 't', args: {} }, result)),
};

describe('review: result messages for values JSON cannot carry', () => {
  it.each([
    ['a cyclic object', cyclic()],
    ['a bigint', BigInt(10)],
    ['an object holding a bigint', { n: BigInt(1) }],
    ['an object whose toJSON throws', { toJSON: () => { throw new Error('no'); } }],
  ])('builds every provider message for %s without throwing', (_label, value) => {
    const result = ActionResult.success(value);
    for (const build of Object.values(builders)) {
      const text = build(result);
      expect(typeof text).toBe('string');
      expect(text).not.toMatch(/\n\s+at /);
    }
    expect(mcpToolResult(result).structuredContent).toBeUndefined();
  });

  it('never sends a function source to the model', () => {
    const result = ActionResult.success(function secret() {
      return 'API_KEY=hunter2';
    });
    for (const build of Object.values(builders)) expect(build(result)).not.toContain('hunter2');
  });

  it('keeps JSON values as they were', () => {
    expect(geminiFunctionResponse({ id: '', name: 't', args: {} }, ActionResult.success({ a: 1 })).functionResponse.response).toEqual({ output: { a: 1 } });
    expect(geminiFunctionResponse({ id: '', name: 't', args: {} }, ActionResult.success(undefined)).functionResponse.response).toEqual({ output: null });
    expect(mcpToolResult(ActionResult.success({ a: 1 })).structuredContent).toEqual({ a: 1 });
  });

  it('a tool returning a cyclic object reaches the model as a result end to end', async () => {
    const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() } });
    tools.action({ name: 'graph', description: 'Graph.', params: Type.Object({}) }, () => cyclic());
    const result = await tools.execute('graph', '{}');
    expect(anthropicToolResult('x', result).is_error).toBe(false);
  });
});

describe('review: malformed provider payloads never throw', () => {
  it('skips null entries and missing lists', () => {
    expect(openAIChatToolCalls({ tool_calls: [null, { id: 'a', type: 'function', function: { name: 'add', arguments: '{' } }] } as unknown as OpenAIChatAssistantMessage)).toEqual([
      { id: 'a', name: 'add', args: '{' },
    ]);
    expect(openAIChatToolCalls(null as unknown as OpenAIChatAssistantMessage)).toEqual([]);
    expect(anthropicToolUses({} as AnthropicMessage)).toEqual([]);
    expect(anthropicToolUses({ content: [null, { type: 'tool_use', id: 't' }] } as unknown as AnthropicMessage)).toEqual([{ id: 't', name: '', args: undefined }]);
    expect(openAIResponsesToolCalls([null, { type: 'function_call' }] as unknown as [])).toEqual([{ id: expect.stringMatching(/^openai_[0-9a-f]{12}_0$/), providerId: '', name: '', args: undefined }]);
    expect(openAIResponsesToolCalls({ output: null } as unknown as { output: [] })).toEqual([]);
    expect(geminiFunctionCalls({ parts: [null, { functionCall: { name: 'add', args: { a: 1 } } }] } as unknown as { parts: [] })).toEqual([{ id: expect.stringMatching(/^gemini_[0-9a-f]{12}_0$/), providerId: '', name: 'add', args: { a: 1 } }]);
    expect(geminiFunctionCalls(null as unknown as { parts: [] })).toEqual([]);
  });

  it('turns a call with missing fields into a failed result, not a crash', async () => {
    const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() } });
    tools.action({ name: 'add', description: 'Add.', params: Type.Object({ a: Type.Integer() }) }, ({ a }) => a);
    const [call] = anthropicToolUses({ content: [{ type: 'tool_use', id: 't', name: 'add' }] });
    const result = await tools.execute(call!.name, call!.args);
    expect(anthropicToolResult(call!.id, result)).toEqual({ type: 'tool_result', tool_use_id: 't', content: "Arguments for tool 'add' must be a JSON object with named fields, got nothing.", is_error: true });
  });
});

describe('review: MCP tools/call with a malformed request', () => {
  it('answers with isError instead of throwing', async () => {
    const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() } });
    tools.action({ name: 'add', description: 'Add.', params: Type.Object({ a: Type.Integer() }) }, ({ a }) => a);
    const missing = await mcpCallTool(tools, undefined as unknown as { name: string });
    expect(missing.isError).toBe(true);
    expect((missing.content[0] as { text: string }).text).toMatch(/^Unknown tool ''/);
    expect((await mcpCallTool(tools, { name: 'add', arguments: 'not json' as unknown as Record<string, unknown> })).isError).toBe(true);
  });
});
