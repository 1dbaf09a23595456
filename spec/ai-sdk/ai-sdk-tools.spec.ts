/**
 * agenttoolkit/ai-sdk against the real AI SDK 7 loop (`generateText` / `streamText` with a multi-step stop condition)
 * driven by the SDK's own mock language model from `ai/test`, scripted to call the registry's tools. Runs on Node 22
 * (the `ai` package's engines), through jest.node22.config.js.
 */
import 'reflect-metadata';
import { Type } from '@sinclair/typebox';
import { generateText, stepCountIs, streamText, type ModelMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { ActionResult, BinaryContent, CoreError, TimeoutMiddleware, ToolChunk, ToolError, Tools } from '../../lib';
import { aiSdkTools, type AiSdkToolOutput } from '../../lib/ai-sdk';

import { call, quiet, scripted, toolOutputs, USAGE } from './support/scripted-model';

function registry(): { tools: Tools; ran: string[] } {
  const ran: string[] = [];
  const tools = new Tools({ logger: quiet });
  tools.action({ name: 'add', description: 'Add two integers.', params: Type.Object({ a: Type.Integer(), b: Type.Integer() }) }, ({ a, b }) => {
    ran.push('add');
    return a + b;
  });
  tools.action({ name: 'broken', description: 'Always fails.', params: Type.Object({}) }, () => {
    ran.push('broken');
    throw new ToolError('the ledger is closed');
  });
  tools.action({ name: 'delete_file', description: 'Delete a file.', params: Type.Object({ path: Type.String() }), requiresApproval: (p) => p.path !== 'scratch.txt' }, ({ path }) => {
    ran.push(`delete ${path}`);
    return `deleted ${path}`;
  });
  return { tools, ran };
}

describe('aiSdkTools with generateText', () => {
  it('runs the SDK loop over several steps: successes, invalid arguments and a failing tool reach the model as results, never as exceptions', async () => {
    const { tools, ran } = registry();
    const { model, prompts } = scripted([call('c1', 'add', { a: 2, b: 3 }), call('c2', 'broken', {}), call('c3', 'add', { a: 'two', b: 3 })], [call('c4', 'add', { a: 5, b: 1 })]);
    const result = await generateText({ model, prompt: 'sum', ...aiSdkTools(tools), stopWhen: stepCountIs(5) });
    expect(result.text).toBe('done');
    expect(result.steps).toHaveLength(3);
    expect(ran).toEqual(['add', 'broken', 'add']); // the invalid call never reached the tool
    const first = result.steps[0]!.toolResults.map((r) => [r.toolCallId, r.output as AiSdkToolOutput]);
    expect(first).toEqual([
      ['c1', { ok: true, text: '5' }],
      ['c2', { ok: false, error: 'the ledger is closed' }],
      ['c3', { ok: false, error: expect.stringContaining('a') }],
    ]);
    expect(result.steps[0]!.content.filter((part) => part.type === 'tool-error')).toEqual([]);
    const sent = toolOutputs(prompts[1]!);
    expect(sent.c1).toEqual({ type: 'text', value: '5' });
    expect(sent.c2).toEqual({ type: 'error-text', value: 'the ledger is closed' });
    expect(sent.c3).toMatchObject({ type: 'error-text' });
    expect(toolOutputs(prompts[2]!).c4).toEqual({ type: 'text', value: '6' });
  });

  it('hands the model the JSON Schema as written, and the strict schema with strict: true when asked', async () => {
    const { tools } = registry();
    const { model, prompts } = scripted([{ type: 'text', text: 'hi' }]);
    await generateText({ model, prompt: 'x', ...aiSdkTools(tools, { names: ['add'] }) });
    expect(model.doGenerateCalls[0]!.tools).toEqual([
      expect.objectContaining({ type: 'function', name: 'add', description: 'Add two integers.', inputSchema: expect.objectContaining({ type: 'object', required: ['a', 'b'] }) }),
    ]);
    expect(prompts).toHaveLength(1);
    const strict = scripted([{ type: 'text', text: 'hi' }]);
    const optional = new Tools();
    optional.action({ name: 'find', description: 'Find.', params: Type.Object({ q: Type.String(), limit: Type.Optional(Type.Integer()) }), examples: [{ q: 'invoices' }] }, () => 'x');
    await generateText({ model: strict.model, prompt: 'x', ...aiSdkTools(optional, { strict: true }) });
    const sent = strict.model.doGenerateCalls[0]!.tools![0] as { strict?: boolean; inputSchema: { required: string[]; additionalProperties: boolean } };
    expect(sent.strict).toBe(true);
    expect(sent.inputSchema.required).toEqual(['q', 'limit']);
    expect(sent.inputSchema.additionalProperties).toBe(false);
    expect((sent as { inputExamples?: unknown }).inputExamples).toEqual([{ input: { q: 'invoices' } }]);
  });

  it('gates calls through toolApproval: a declined call never runs and the model reads that it was denied; a call that needs no approval runs', async () => {
    const { tools, ran } = registry();
    const asked: string[] = [];
    const approve = (tool: { name: string }, c: { args: unknown }) => {
      asked.push(`${tool.name} ${JSON.stringify(c.args)}`);
      return false;
    };
    const { model, prompts } = scripted([call('d1', 'delete_file', { path: 'notes.txt' }), call('d2', 'delete_file', { path: 'scratch.txt' })]);
    const result = await generateText({ model, prompt: 'clean', ...aiSdkTools(tools, { approve }), stopWhen: stepCountIs(3) });
    expect(asked).toEqual(['delete_file {"path":"notes.txt"}']);
    expect(ran).toEqual(['delete scratch.txt']);
    const sent = toolOutputs(prompts[1]!);
    expect(sent.d1).toMatchObject({ type: 'execution-denied', reason: expect.stringMatching(/declined/i) });
    expect(sent.d2).toEqual({ type: 'text', value: 'deleted scratch.txt' });
    expect(result.text).toBe('done');
  });

  it('declines a call whose approval step throws, and approves one it approves', async () => {
    const { tools, ran } = registry();
    const throwing = scripted([call('d1', 'delete_file', { path: 'a' })]);
    await generateText({ model: throwing.model, prompt: 'x', ...aiSdkTools(tools, { approve: () => { throw new ToolError('no'); } }), stopWhen: stepCountIs(3) });
    expect(toolOutputs(throwing.prompts[1]!).d1).toMatchObject({ type: 'execution-denied' });
    const yes = scripted([call('d1', 'delete_file', { path: 'a' })]);
    await generateText({ model: yes.model, prompt: 'x', ...aiSdkTools(tools, { approve: async () => true }), stopWhen: stepCountIs(3) });
    expect(ran).toEqual(['delete a']);
  });

  it('without an approve step, stops with a tool-approval-request the host answers in the next call (human in the loop)', async () => {
    const { tools, ran } = registry();
    const { model, prompts } = scripted([call('d1', 'delete_file', { path: 'notes.txt' })]);
    const set = aiSdkTools(tools);
    const first = await generateText({ model, prompt: 'clean', ...set, stopWhen: stepCountIs(3) });
    expect(ran).toEqual([]);
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toMatchObject({ toolCall: { toolName: 'delete_file', input: { path: 'notes.txt' } } });
    const messages: ModelMessage[] = [
      { role: 'user', content: 'clean' },
      ...first.response.messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: (request as { approvalId: string }).approvalId, approved: true }] },
    ];
    const second = await generateText({ model, messages, ...set, stopWhen: stepCountIs(3) });
    expect(ran).toEqual(['delete notes.txt']);
    expect(second.text).toBe('done');
    expect(toolOutputs(prompts.at(-1)!).d1).toEqual({ type: 'text', value: 'deleted notes.txt' });
  });

  it('passes the SDK abort signal to the tool: an aborted call stops the tool and the loop', async () => {
    const tools = new Tools();
    let toolSignal: AbortSignal | undefined;
    let onStart = () => {};
    const started = new Promise<void>((resolve) => (onStart = resolve));
    tools.action({ name: 'wait', description: 'Wait for a long time.', params: Type.Object({}) }, (_p, _deps, { signal }) => {
      toolSignal = signal;
      onStart();
      return new Promise<string>(() => undefined);
    });
    const controller = new AbortController();
    const { model } = scripted([call('w1', 'wait', {})]);
    const running = generateText({ model, prompt: 'x', ...aiSdkTools(tools), stopWhen: stepCountIs(3), abortSignal: controller.signal });
    await started;
    controller.abort();
    await expect(running).rejects.toThrow();
    expect(toolSignal?.aborted).toBe(true);
  });

  it('applies the registry middleware (a timeout) and the selection by group, and refuses an unknown name', async () => {
    const tools = new Tools({ logger: quiet, middleware: [new TimeoutMiddleware(20)] });
    tools.action({ name: 'slow', description: 'Slow.', params: Type.Object({}), group: 'ops' }, () => new Promise<string>(() => undefined));
    tools.action({ name: 'other', description: 'Other.', params: Type.Object({}) }, () => 'x');
    const set = aiSdkTools(tools, { groups: ['ops'] });
    expect(Object.keys(set.tools)).toEqual(['slow']);
    const { model, prompts } = scripted([call('s1', 'slow', {})]);
    await generateText({ model, prompt: 'x', ...set, stopWhen: stepCountIs(3) });
    expect(toolOutputs(prompts[1]!).s1).toMatchObject({ type: 'error-text', value: expect.stringContaining('20 ms') });
    expect(() => aiSdkTools(tools, { names: ['slow', 'nope'] })).toThrow(CoreError);
    expect(await set.toolApproval({ toolCall: { toolName: 'not-ours' } } as never)).toBeUndefined();
  });

  it('sends binary results (an image beside text) through toModelOutput as content with file parts', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const tools = new Tools();
    tools.action({ name: 'shot', description: 'Screenshot.', params: Type.Object({}) }, () => BinaryContent.from(png, 'image/png', 'shot.png'));
    tools.action({ name: 'pdf', description: 'A document.', params: Type.Object({}) }, () => ActionResult.success(BinaryContent.from(Buffer.from('%PDF-1.4'), 'application/pdf')));
    const { model, prompts } = scripted([call('i1', 'shot', {}), call('i2', 'pdf', {})]);
    await generateText({ model, prompt: 'x', ...aiSdkTools(tools), stopWhen: stepCountIs(3) });
    const sent = toolOutputs(prompts[1]!);
    expect(sent.i1).toEqual({ type: 'content', value: [{ type: 'file', mediaType: 'image/png', data: { type: 'data', data: png.toString('base64') }, filename: 'shot.png' }] });
    expect(sent.i2).toEqual({ type: 'content', value: [{ type: 'file', mediaType: 'application/pdf', data: { type: 'data', data: Buffer.from('%PDF-1.4').toString('base64') } }] });
  });
});

describe('aiSdkTools with streamText', () => {
  it("streams a tool's chunks as preliminary results, then the final result", async () => {
    const tools = new Tools();
    tools.action({ name: 'count', description: 'Count to three.', params: Type.Object({}) }, async function* () {
      yield ToolChunk.text('one ');
      yield ToolChunk.text('two ');
      yield 'three';
    });
    let step = 0;
    const parts = (id: string): LanguageModelV4StreamPart[] =>
      step++ === 0
        ? [{ type: 'tool-call', toolCallId: id, toolName: 'count', input: '{}' }, { type: 'finish', usage: USAGE, finishReason: { unified: 'tool-calls', raw: undefined } }]
        : [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'counted' }, { type: 'text-end', id: 't' }, { type: 'finish', usage: USAGE, finishReason: { unified: 'stop', raw: undefined } }];
    const model = new MockLanguageModelV4({
      doStream: async () => ({ stream: new ReadableStream({ start(controller) { for (const part of parts('k1')) controller.enqueue(part); controller.close(); } }) }),
    });
    const result = streamText({ model, prompt: 'count', ...aiSdkTools(tools), stopWhen: stepCountIs(3) });
    const results: Array<{ preliminary?: boolean; output: unknown }> = [];
    for await (const part of result.fullStream) if (part.type === 'tool-result') results.push({ preliminary: part.preliminary, output: part.output });
    expect(results).toEqual([
      { preliminary: true, output: { ok: true, preliminary: true, text: 'one ' } },
      { preliminary: true, output: { ok: true, preliminary: true, text: 'one two ' } },
      { preliminary: true, output: { ok: true, preliminary: true, text: 'one two three' } },
      { preliminary: true, output: { ok: true, text: 'one two three' } },
      { preliminary: undefined, output: { ok: true, text: 'one two three' } },
    ]);
    expect(await result.text).toBe('counted');
  });
});
