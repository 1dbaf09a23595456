/**
 * aiSdkTools' batch rule in the real AI SDK 7 loop (`generateText`): the calls of one step run with at most
 * `maxConcurrency` at once, a concurrency-unsafe call alone; separate `generateText` runs never wait for each other.
 * Counted inside the tools.
 */
import { Type } from '@sinclair/typebox';
import { generateText, stepCountIs } from 'ai';
import { CoreError, ToolEffect, Tools } from '../../lib';
import { aiSdkTools } from '../../lib/ai-sdk';
import { call, quiet, scripted } from './support/scripted-model';

const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A registry whose tools count the calls running with them: `read` (safe), `write` (unsafe). */
function counted() {
  let running = 0;
  let most = 0;
  const seen: Array<{ name: string; alongside: number }> = [];
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

describe('aiSdkTools: the batch rule within a step', () => {
  it('runs at most maxConcurrency calls of one step at once', async () => {
    const { tools, seen, most } = counted();
    const { model } = scripted(Array.from({ length: 6 }, (_, i) => call(`r${i}`, 'read', {})));
    const result = await generateText({ model, prompt: 'go', ...aiSdkTools(tools, { maxConcurrency: 2 }), stopWhen: stepCountIs(3) });
    expect(result.text).toBe('done');
    expect(seen).toHaveLength(6);
    expect(most()).toBe(2);
  });

  it('runs a concurrency-unsafe call alone within its step, and the safe ones together', async () => {
    const { tools, seen, most } = counted();
    const { model } = scripted([call('a', 'read', {}), call('b', 'read', {}), call('w', 'write', {}), call('c', 'read', {})]);
    await generateText({ model, prompt: 'go', ...aiSdkTools(tools), stopWhen: stepCountIs(3) });
    expect(seen.find((s) => s.name === 'write')!.alongside).toBe(1);
    expect(most()).toBe(2);
  });

  it('never makes the unsafe calls of separate runs wait for each other, with one tool set shared by both', async () => {
    const { tools, seen, most } = counted();
    const set = aiSdkTools(tools);
    await Promise.all(['one', 'two'].map((prompt) => generateText({ model: scripted([call('w', 'write', {})]).model, prompt, ...set, stopWhen: stepCountIs(3) })));
    expect(seen.map((s) => s.name)).toEqual(['write', 'write']);
    expect(most()).toBe(2);
  });

  it('refuses a maxConcurrency that is not a positive integer', () => {
    expect(() => aiSdkTools(new Tools(), { maxConcurrency: 1.5 })).toThrow(CoreError);
  });
});
