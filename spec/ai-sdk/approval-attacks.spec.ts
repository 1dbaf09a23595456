/**
 * Attacks on the AI SDK adapter through the real AI SDK 7 loop (`generateText`, the SDK's mock model): a host that
 * spreads only `tools` (forgetting `toolApproval`) must not run calls that need approval; arguments that make the
 * approval predicate throw must ask; a declined or unanswered approval never runs the tool; a failing tool's exception
 * does not reach the model. Runs on Node 22 with the other AI SDK specs (jest.node22.config.js).
 */
import { Type } from '@sinclair/typebox';
import { generateText, stepCountIs, streamText, type ModelMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { Tools, type ToolLogger } from '../../lib';
import { aiSdkTools } from '../../lib/ai-sdk';

import { call, quiet, scripted, toolOutputs, USAGE } from './support/scripted-model';

function payments(logger: ToolLogger = quiet) {
  const ran: unknown[] = [];
  const tools = new Tools({ logger });
  tools.action({
    name: 'pay',
    description: 'Pay.',
    params: Type.Object({ amount: Type.Number(), memo: Type.Optional(Type.Object({ text: Type.String() })) }),
    requiresApproval: (p: { amount: number; memo?: { text: string } }) => p.amount > 100 || p.memo!.text === 'x',
  }, (p) => (ran.push(p), 'paid'));
  tools.action({ name: 'look', description: 'Look.', params: Type.Object({}) }, () => (ran.push('look'), 'seen'));
  return { tools, ran };
}

describe('aiSdkTools: approval cannot be skipped', () => {
  it.each([
    ['a call the predicate asks for', { amount: 500, memo: { text: 'y' } }],
    ['arguments that make the predicate throw', { amount: 5 }],
    ['an undeclared field claiming approval', { amount: 500, memo: { text: 'y' }, approved: true }],
  ])('runs nothing for %s when the host passes the tools without toolApproval', async (_what, args) => {
    const warnings: string[] = [];
    const { tools, ran } = payments({ warn: (m) => warnings.push(m), error: () => undefined });
    const { model, prompts } = scripted([call('p1', 'pay', args), call('l1', 'look', {})]);
    await generateText({ model, prompt: 'pay', tools: aiSdkTools(tools).tools, stopWhen: stepCountIs(3) });
    expect(ran).toEqual(['look']);
    expect(toolOutputs(prompts[1]!).p1).toMatchObject({ type: 'error-text', value: expect.stringMatching(/was not run: it needs approval/) });
    expect(warnings.join('\n')).toMatch(/needs approval but was not cleared by the set's toolApproval/);
  });

  it('runs nothing with streamText either when toolApproval is left out', async () => {
    const { tools, ran } = payments();
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: 'tool-call', toolCallId: 'p1', toolName: 'pay', input: JSON.stringify({ amount: 500 }) });
            controller.enqueue({ type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage: USAGE });
            controller.close();
          },
        }),
      }),
    });
    const result = streamText({ model, prompt: 'pay', tools: aiSdkTools(tools).tools });
    await result.consumeStream();
    expect(ran).toEqual([]);
  });

  it('asks (user-approval) for arguments that make the predicate throw, runs after a yes, never after a no', async () => {
    for (const approved of [false, true]) {
      const { tools, ran } = payments();
      const set = aiSdkTools(tools);
      const { model } = scripted([call('p1', 'pay', { amount: 5 })]);
      const first = await generateText({ model, prompt: 'pay', ...set, stopWhen: stepCountIs(3) });
      expect(ran).toEqual([]);
      const request = first.content.find((part) => part.type === 'tool-approval-request') as { approvalId: string } | undefined;
      expect(request).toBeDefined();
      const messages: ModelMessage[] = [
        { role: 'user', content: 'pay' },
        ...first.response.messages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved }] },
      ];
      // The host builds a fresh tool set for the next request, as a stateless server does.
      await generateText({ model, messages, ...aiSdkTools(tools), stopWhen: stepCountIs(3) });
      expect(ran).toEqual(approved ? [{ amount: 5 }] : []);
    }
  });

  it.each([
    ['answers false', () => false],
    ['answers a truthy non-boolean', () => 'yes'],
    ['throws', () => { throw new Error('approver down'); }],
  ])('never runs a call whose approve step %s', async (_what, approve) => {
    const { tools, ran } = payments();
    const { model, prompts } = scripted([call('p1', 'pay', { amount: 500 })]);
    await generateText({ model, prompt: 'pay', ...aiSdkTools(tools, { approve: approve as never }), stopWhen: stepCountIs(3) });
    expect(ran).toEqual([]);
    expect(toolOutputs(prompts[1]!).p1).toMatchObject({ type: 'execution-denied' });
  });

  it('clears a call once: the same call id replayed later needs approval again', async () => {
    const { tools, ran } = payments();
    const set = aiSdkTools(tools, { approve: () => true });
    const first = scripted([call('p1', 'pay', { amount: 500 })]);
    await generateText({ model: first.model, prompt: 'pay', ...set, stopWhen: stepCountIs(3) });
    expect(ran).toHaveLength(1);
    const replay = scripted([call('p1', 'pay', { amount: 900 })]);
    await generateText({ model: replay.model, prompt: 'pay', tools: set.tools, stopWhen: stepCountIs(3) });
    expect(ran).toHaveLength(1);
  });

  it.each([
    ['another input', 'p1', { amount: 900, memo: { text: 'y' } }],
    ['another call id', 'p2', { amount: 500, memo: { text: 'y' } }],
  ])('an approval cleared for one call does not run the same tool with %s', async (_what, id, input) => {
    const { tools, ran } = payments();
    const set = aiSdkTools(tools, { approve: () => true });
    expect(await set.toolApproval({ toolCall: { toolCallId: 'p1', toolName: 'pay', input: { amount: 500, memo: { text: 'y' } } } })).toBe('approved');
    const outputs: unknown[] = [];
    const execution = { toolCallId: id, messages: [], abortSignal: undefined } as never;
    for await (const output of set.tools.pay!.execute!(input, execution) as AsyncIterable<unknown>) outputs.push(output);
    expect(outputs.at(-1)).toMatchObject({ ok: false, error: expect.stringMatching(/needs approval/) });
    expect(ran).toEqual([]);
    // The approved call itself still runs, once (the key order of its input does not matter).
    const again: unknown[] = [];
    for await (const output of set.tools.pay!.execute!({ memo: { text: 'y' }, amount: 500 }, { toolCallId: 'p1', messages: [] } as never) as AsyncIterable<unknown>) again.push(output);
    expect(again.at(-1)).toMatchObject({ ok: true });
    expect(ran).toHaveLength(1);
  });
});

describe('aiSdkTools: a failing tool does not leak its exception to the model', () => {
  it.each([
    ['an Error with the secret on a later line', () => { throw new Error('connect failed\n    at Pool (postgres://admin:hunter2@db)'); }],
    ['an Error with the secret in its cause', () => { throw new Error('connect failed', { cause: new Error('hunter2') }); }],
    ['a plain object', () => { throw { password: 'hunter2' }; }],
  ])('for %s', async (_what, fail) => {
    const tools = new Tools({ logger: quiet });
    tools.action({ name: 'query', description: 'Query.', params: Type.Object({}) }, fail as () => string);
    const { model, prompts } = scripted([call('q1', 'query', {})]);
    await generateText({ model, prompt: 'q', ...aiSdkTools(tools), stopWhen: stepCountIs(3) });
    const output = JSON.stringify(toolOutputs(prompts[1]!).q1);
    expect(output).toMatch(/error-text/);
    expect(output).not.toMatch(/hunter2|\bat Pool/);
  });
});
