import { executeToolCalls, ToolEffect, Tools, type ToolCallRequest } from '../../lib';
import { anthropicToolUses } from '../../lib/providers/anthropic';
import { openAIChatToolCalls } from '../../lib/providers/openai';

/** A tool body that waits until the test opens its gate, recording when it started. */
function gated(log: string[]) {
  const gates = new Map<string, () => void>();
  const body = (id: string) => {
    log.push(`start ${id}`);
    return new Promise<string>((resolve) => gates.set(id, () => (log.push(`end ${id}`), resolve(id))));
  };
  const open = async (id: string) => {
    for (let i = 0; i < 50 && !gates.has(id); i++) await new Promise((r) => setImmediate(r));
    gates.get(id)!();
  };
  return { body, open, started: (id: string) => gates.has(id) };
}

describe('executeToolCalls', () => {
  it('runs consecutive concurrency-safe calls together and every other call alone, in order', async () => {
    const log: string[] = [];
    const { body, open, started } = gated(log);
    const tools = new Tools();
    tools.action({ name: 'read', description: 'Read.', params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as never, effects: [ToolEffect.READS_WORKSPACE] }, (p: { id: string }) => body(p.id));
    tools.action({ name: 'write', description: 'Write.', params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as never, effects: [ToolEffect.WRITES_WORKSPACE] }, (p: { id: string }) => body(p.id));
    expect(tools.get('read')!.isConcurrencySafe).toBe(true);
    expect(tools.get('write')!.isConcurrencySafe).toBe(false);
    const calls: ToolCallRequest[] = [
      { id: '1', name: 'read', args: { id: 'r1' } },
      { id: '2', name: 'read', args: { id: 'r2' } },
      { id: '3', name: 'write', args: { id: 'w1' } },
      { id: '4', name: 'read', args: { id: 'r3' } },
    ];
    const pending = executeToolCalls(tools, calls);
    await open('r2');
    expect(started('r1')).toBe(true);
    expect(started('w1')).toBe(false);
    await open('r1');
    await open('w1');
    await open('r3');
    const outcomes = await pending;
    expect(log.indexOf('start w1')).toBeGreaterThan(log.indexOf('end r2'));
    expect(log.indexOf('start r3')).toBeGreaterThan(log.indexOf('end w1'));
    expect(outcomes.map((o) => [o.call.id, o.result.result])).toEqual([['1', 'r1'], ['2', 'r2'], ['3', 'w1'], ['4', 'r3']]);
    expect(log.slice(0, 2)).toEqual(['start r1', 'start r2']);
  });
});

describe('parsers accept whole message literals', () => {
  it('reads tool calls from an OpenAI or Anthropic message written as an object literal', () => {
    expect(openAIChatToolCalls({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] })).toEqual([{ id: 'c1', name: 'f', args: '{}' }]);
    expect(anthropicToolUses({ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] })).toEqual([{ id: 't1', name: 'f', args: {} }]);
  });
});
