/**
 * Every TypeScript snippet of docs/frameworks/ai-sdk.md, type-checked and run as written (`agenttoolkit` imports
 * mapped to lib/), against the AI SDK's mock language model scripted to call the snippet's tools.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { docSnippets, runSnippet, snippetTypeErrors } from '../support/doc-snippets';

const snippets = docSnippets('frameworks/ai-sdk.md');
const ALIASES = { agenttoolkit: '../../lib', 'agenttoolkit/ai-sdk': '../../lib/ai-sdk' };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the snippet's own imports, through jest's require
const load = (name: string): unknown => require(name);
const run = (index: number) => runSnippet(snippets[index]!, load, ALIASES);

const USAGE = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** A mock model: the first step calls `name` with `input`, later steps answer with the text of the last tool result. */
function callingModel(name: string, input: unknown) {
  const prompts: LanguageModelV4CallOptions['prompt'][] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt);
      const last = prompt.at(-1);
      const content: LanguageModelV4Content[] =
        last?.role === 'user' ? [{ type: 'tool-call', toolCallId: `c${prompts.length}`, toolName: name, input: JSON.stringify(input) }] : [{ type: 'text', text: `model saw: ${JSON.stringify(last?.content)}` }];
      return { content, finishReason: { unified: content[0]!.type === 'tool-call' ? 'tool-calls' : 'stop', raw: undefined }, usage: USAGE, warnings: [] };
    },
  });
  return { model, prompts };
}

describe('docs/frameworks/ai-sdk.md snippets', () => {
  it('has the four snippets this spec runs, and they type-check', () => {
    expect(snippets).toHaveLength(4);
    expect(snippetTypeErrors(snippets)).toEqual([]);
  }, 60_000);

  it('the quick start answers through the SDK loop with the tool result', async () => {
    const { ask } = (await run(0)) as { ask: (model: unknown, prompt: string) => Promise<string> };
    const { model } = callingModel('add', { a: 2, b: 40 });
    expect(await ask(model, 'add')).toContain('42');
  });

  it('the inline approval snippet asks, and runs only what was confirmed', async () => {
    const exports = (await run(1)) as { deleted: string[]; cleanUp: (model: unknown, confirm: (q: string) => Promise<boolean>) => Promise<unknown> };
    const questions: string[] = [];
    await exports.cleanUp(callingModel('delete_file', { path: 'notes.txt' }).model, async (q) => (questions.push(q), false));
    expect(questions).toEqual(['Run delete_file with {"path":"notes.txt"}?']);
    expect(exports.deleted).toEqual([]);
    await exports.cleanUp(callingModel('delete_file', { path: 'tmp/x' }).model, async () => {
      throw new Error('never asked');
    });
    await exports.cleanUp(callingModel('delete_file', { path: 'notes.txt' }).model, async () => true);
    expect(exports.deleted).toEqual(['tmp/x', 'notes.txt']);
  });

  it('the human-in-the-loop snippet deploys once approved, and not when refused', async () => {
    const { deployWithConsent } = (await run(2)) as { deployWithConsent: (model: unknown, approved: boolean) => Promise<{ text: string }> };
    expect((await deployWithConsent(callingModel('deploy', { service: 'api' }).model, true)).text).toContain('deployed api');
    expect((await deployWithConsent(callingModel('deploy', { service: 'api' }).model, false)).text).not.toContain('deployed api');
  });

  it('the human-in-the-loop snippet continues with every step of a two-step first answer', async () => {
    const { deployWithConsent } = (await run(2)) as { deployWithConsent: (model: unknown, approved: boolean) => Promise<{ text: string }> };
    const script: LanguageModelV4Content[][] = [
      [{ type: 'tool-call', toolCallId: 's1', toolName: 'status', input: JSON.stringify({ service: 'api' }) }],
      [{ type: 'tool-call', toolCallId: 'd1', toolName: 'deploy', input: JSON.stringify({ service: 'api' }) }],
      [{ type: 'text', text: 'done' }],
    ];
    const prompts: LanguageModelV4CallOptions['prompt'][] = [];
    const model = new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => {
        const content = script[prompts.push(prompt) - 1]!;
        return { content, finishReason: { unified: content[0]!.type === 'tool-call' ? 'tool-calls' : 'stop', raw: undefined }, usage: USAGE, warnings: [] };
      },
    });
    expect((await deployWithConsent(model, true)).text).toBe('done');
    expect(prompts).toHaveLength(3); // status, then deploy (approval asked), then the answer after the approved deploy
    const results = prompts[2]!.flatMap((message) => (message.role === 'tool' ? message.content : [])).filter((part) => part.type === 'tool-result');
    expect(results.map((part) => [part.toolCallId, part.output])).toEqual([
      ['s1', { type: 'text', value: 'api: green' }],
      ['d1', { type: 'text', value: 'deployed api' }],
    ]);
  });

  it('the streaming snippet reports the build progress as preliminary results', async () => {
    const { watchBuild } = (await run(3)) as { watchBuild: (model: unknown, onProgress: (text: string) => void) => Promise<string> };
    let step = 0;
    const parts = (): LanguageModelV4StreamPart[] =>
      step++ === 0
        ? [{ type: 'tool-call', toolCallId: 'b1', toolName: 'build', input: '{}' }, { type: 'finish', usage: USAGE, finishReason: { unified: 'tool-calls', raw: undefined } }]
        : [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'built' }, { type: 'text-end', id: 't' }, { type: 'finish', usage: USAGE, finishReason: { unified: 'stop', raw: undefined } }];
    const model = new MockLanguageModelV4({
      doStream: async () => ({ stream: new ReadableStream({ start(c) { for (const p of parts()) c.enqueue(p); c.close(); } }) }),
    });
    const progress: string[] = [];
    expect(await watchBuild(model, (text) => progress.push(text))).toBe('built');
    expect(progress).toEqual(['compiling... ', 'compiling... linking... ', 'compiling... linking... done', 'compiling... linking... done']);
  });
});
