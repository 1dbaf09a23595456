import { Type } from '@sinclair/typebox';
import {
  ActionResult,
  executeToolCall,
  provided,
  TimeoutMiddleware,
  Tools,
} from '../../lib';
import { anthropicToolUses } from '../../lib/providers/anthropic';
import { geminiFunctionCalls } from '../../lib/providers/gemini';
import { mcpCallTool } from '../../lib/providers/mcp';
import { openAIChatToolCalls, openAIChatToolMessage, openAIResponsesToolCalls } from '../../lib/providers/openai';

function registry(options: ConstructorParameters<typeof Tools>[0] = {}): Tools {
  const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() }, ...options });
  tools.action({ name: 'add', description: 'Add.', params: Type.Object({ a: Type.Integer(), b: Type.Integer() }) }, ({ a, b }) => a + b);
  tools.action({ name: 'slow', description: 'Slow.' }, () => new Promise((resolve) => setTimeout(() => resolve('late'), 200)));
  tools.action({ name: 'guarded', description: 'Guarded.', params: Type.Object({ force: Type.Optional(Type.Boolean()) }), requiresApproval: (p: { force?: boolean }) => p.force === true }, () => 'done');
  return tools;
}

describe('model calls in, results out', () => {
  it('turns malformed or truncated JSON arguments into a failed result that says so, never a crash', async () => {
    const tools = registry();
    const calls = openAIChatToolCalls({
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a": 1, "b":' } },
        { id: 'c2', type: 'function', function: { name: 'add', arguments: '[1, 2]' } },
        { id: 'c3', type: 'function', function: { name: 'add', arguments: '' } },
      ],
    });
    const [truncated, array, empty] = await Promise.all(calls.map((call) => tools.execute(call.name, call.args)));
    expect(openAIChatToolMessage('c1', truncated!).content).toMatch(/^Error: Arguments for tool 'add' are not valid JSON .*Send the arguments as one complete JSON object\./);
    expect(array!.error).toMatch(/must be a JSON object with named fields, got an array/);
    expect(empty!.error).toMatch(/a: is required but missing/);
  });

  it('skips what is not a function call in every response shape', () => {
    expect(openAIChatToolCalls({ tool_calls: null })).toEqual([]);
    expect(openAIChatToolCalls({})).toEqual([]);
    expect(openAIChatToolCalls({ tool_calls: [{ id: 'x', type: 'function' }] })).toEqual([]);
    expect(openAIResponsesToolCalls([{ type: 'message' }, { type: 'function_call', call_id: 'r', name: 'add', arguments: '{}' } as { type: string }])).toEqual([{ id: 'r', name: 'add', args: '{}' }]);
    expect(anthropicToolUses({ content: [{ type: 'text' }, { type: 'server_tool_use', id: 's', name: 'web_search', input: {} }] })).toEqual([]);
    expect(geminiFunctionCalls({ candidates: [] })).toEqual([]);
    expect(geminiFunctionCalls({})).toEqual([]);
    expect(geminiFunctionCalls({ parts: [{ functionCall: { args: {} } }, { functionCall: { name: 'add' } }, {}] })).toEqual([{ id: expect.stringMatching(/^gemini_[0-9a-f]{12}_0$/), providerId: '', name: 'add', args: {} }]);
  });

  it('gives a timed-out call a failed result like any other', async () => {
    const tools = registry({ middleware: [new TimeoutMiddleware(20)] });
    const result = await executeToolCall(tools, { id: 't', name: 'slow', args: '{}' });
    expect(result.ok).toBe(false);
    expect(openAIChatToolMessage('t', result).content).toMatch(/^Error: /);
  });

  it('asks for approval only when the params call for it, and declines when the approval step throws', async () => {
    const tools = registry();
    const approve = jest.fn(() => true);
    expect((await executeToolCall(tools, { id: '1', name: 'guarded', args: { force: null } }, { approve })).result).toBe('done');
    expect(approve).not.toHaveBeenCalled();
    expect((await executeToolCall(tools, { id: '2', name: 'guarded', args: '{"force":true}' }, { approve })).result).toBe('done');
    expect(approve).toHaveBeenCalledTimes(1);
    const throwing = await executeToolCall(tools, { id: '3', name: 'guarded', args: { force: true } }, { approve: () => Promise.reject(new Error('ui closed')) });
    expect(throwing.error).toMatch(/^The user declined to run tool 'guarded'/);
    expect((await executeToolCall(tools, { id: '4', name: 'missing', args: {} })).error).toMatch(/^Unknown tool 'missing'/);
    const hidden = new Tools();
    hidden.action({ name: 'secret', description: 'Hidden.', requiresApproval: true, availableWhen: provided(Date) }, () => 'ran');
    const never = jest.fn(() => true);
    expect((await executeToolCall(hidden, { id: '5', name: 'secret', args: {} }, { approve: never })).error).toMatch(/^Unknown tool 'secret'/);
    expect(never).not.toHaveBeenCalled();
  });

  it('answers MCP calls without arguments', async () => {
    const tools = new Tools();
    tools.action({ name: 'now', description: 'Now.' }, () => ActionResult.success('noon'));
    expect(await mcpCallTool(tools, { name: 'now' })).toEqual({ content: [{ type: 'text', text: 'noon' }], isError: false });
  });
});
