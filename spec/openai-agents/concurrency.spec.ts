/**
 * openAIAgentsTools' batch rule in the real Agents SDK loop (`Runner.run`): the calls of one turn run with at most
 * `maxConcurrency` at once, a concurrency-unsafe call alone; separate runs never wait for each other. Counted inside
 * the tools.
 */
import { Type } from '@sinclair/typebox';
import { Agent, Runner, Usage, setTracingDisabled, type Model, type ModelRequest, type ModelResponse } from '@openai/agents-core';
import { CoreError, ToolEffect, ToolError, Tools, type ToolLogger } from '../../lib';
import { openAIAgentsTools } from '../../lib/openai-agents';

setTracingDisabled(true);

const quiet: ToolLogger = { warn: () => undefined, error: () => undefined };
type Output = ModelResponse['output'];

const call = (callId: string, name: string): Output[number] => ({ type: 'function_call', callId, name, arguments: '{}', status: 'completed' });
const done: Output[number] = { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] };

class ScriptedModel implements Model {
  private asked = 0;
  constructor(private readonly turn: Output) {}
  async getResponse(_request: ModelRequest): Promise<ModelResponse> {
    return { usage: new Usage(), output: this.asked++ === 0 ? this.turn : [done] };
  }
  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new ToolError('the fake model does not stream');
  }
}

const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A registry whose tools count the calls running with them: `read` (safe), `write` (unsafe). */
function counted() {
  let running = 0;
  const seen: Array<{ name: string; alongside: number }> = [];
  let most = 0;
  const tools = new Tools({ logger: quiet });
  const body = (name: string) => async () => {
    running++;
    most = Math.max(most, running);
    seen.push({ name, alongside: running });
    await ticks(20); // long enough for every call the SDK started to reach here, were it let through
    running--;
    return name;
  };
  tools.action({ name: 'read', description: 'Read.', params: Type.Object({}), effects: [] }, body('read'));
  tools.action({ name: 'write', description: 'Write.', params: Type.Object({}), effects: [ToolEffect.WRITES_WORKSPACE] }, body('write'));
  return { tools, seen, most: () => most };
}

function agent(tools: Tools, turn: Output, maxConcurrency?: number) {
  return new Agent({ name: 'A', instructions: 'Help.', model: new ScriptedModel(turn), tools: openAIAgentsTools(tools, { maxConcurrency }) });
}

describe('openAIAgentsTools: the batch rule within a run', () => {
  it('runs at most maxConcurrency calls of one turn at once', async () => {
    const { tools, seen, most } = counted();
    const result = await new Runner().run(agent(tools, Array.from({ length: 6 }, (_, i) => call(`r${i}`, 'read')), 2), 'go');
    expect(result.finalOutput).toBe('done');
    expect(seen).toHaveLength(6);
    expect(most()).toBe(2);
  });

  it('runs a concurrency-unsafe call alone within the turn, and the safe ones together', async () => {
    const { tools, seen, most } = counted();
    await new Runner().run(agent(tools, [call('a', 'read'), call('b', 'read'), call('w', 'write'), call('c', 'read')]), 'go');
    expect(seen.find((s) => s.name === 'write')!.alongside).toBe(1);
    expect(most()).toBe(2); // the two reads before the write ran together
  });

  it('never makes the unsafe calls of separate runs wait for each other', async () => {
    const { tools, seen, most } = counted();
    const runner = new Runner();
    const set = [call('w', 'write')];
    await Promise.all([runner.run(agent(tools, set), 'one'), runner.run(agent(tools, set), 'two')]);
    expect(seen.map((s) => s.name)).toEqual(['write', 'write']);
    expect(most()).toBe(2);
  });

  it('refuses a maxConcurrency that is not a positive integer', () => {
    expect(() => openAIAgentsTools(new Tools(), { maxConcurrency: 0 })).toThrow(CoreError);
  });
});
