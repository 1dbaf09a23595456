/**
 * Every TypeScript snippet of docs/frameworks/openai-agents.md, type-checked and run as written (`agenttoolkit`
 * imports mapped to lib/, `@openai/agents` to `@openai/agents-core`, which it re-exports), with a fake model as the
 * SDK's default model.
 */
import { Usage, setDefaultModelProvider, setTracingDisabled, type Agent, type AgentInputItem, type Model, type ModelRequest, type ModelResponse } from '@openai/agents-core';
import { docSnippets, runSnippet, snippetTypeErrors } from '../support/doc-snippets';

setTracingDisabled(true);

const snippets = docSnippets('frameworks/openai-agents.md');
const TYPE_ALIASES = { '@openai/agents': '@openai/agents-core' };
const ALIASES = { ...TYPE_ALIASES, agenttoolkit: '../../lib', 'agenttoolkit/openai-agents': '../../lib/openai-agents' };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the snippet's own imports, through jest's require
const load = (name: string): unknown => require(name);

/** The default model of the SDK here: calls `delete` then `read` on its first turn, then reports the results it got. */
class FileModel implements Model {
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const input = request.input as AgentInputItem[];
    const results = input.filter((item) => item.type === 'function_call_result');
    if (results.length === 0) {
      return {
        usage: new Usage(),
        output: [
          { type: 'function_call', callId: 'd1', name: 'delete', arguments: JSON.stringify({ path: 'notes.txt' }), status: 'completed' },
          { type: 'function_call', callId: 'r1', name: 'read', arguments: JSON.stringify({ path: 'a.md' }), status: 'completed' },
        ],
      };
    }
    const text = results.map((item) => JSON.stringify(item.output)).join(' | ');
    return { usage: new Usage(), output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] }] };
  }

  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    return;
  }
}

setDefaultModelProvider({ getModel: async () => new FileModel() });

describe('docs/frameworks/openai-agents.md snippets', () => {
  it('has the two snippets this spec runs, and they type-check (a type error would be reported)', () => {
    expect(snippets).toHaveLength(2);
    expect(snippetTypeErrors(snippets, TYPE_ALIASES)).toEqual([]);
    expect(snippetTypeErrors(['export const wrong: number = "text";'])).toHaveLength(1);
  }, 60_000);

  it('the quick start runs the agent: the read runs, the delete that needs approval interrupts the run', async () => {
    const { ask, agent } = (await runSnippet(snippets[0]!, load, ALIASES)) as { ask: (q: string) => Promise<unknown>; agent: Agent };
    expect(agent.tools.map((t) => t.name)).toEqual(['read', 'delete']);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect(await ask('tidy up')).toBeUndefined(); // interrupted: no final output until the delete is decided
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('before agent run is completed'));
    } finally {
      warn.mockRestore();
    }
  });

  it('the approval loop asks for the delete; approved, it runs; refused, the model is told', async () => {
    const { agent } = (await runSnippet(snippets[0]!, load, ALIASES)) as { agent: Agent };
    const { runWithApproval } = (await runSnippet(snippets[1]!, load, ALIASES)) as { runWithApproval: (agent: Agent, input: string, confirm: (tool: string, args: string) => Promise<boolean>) => Promise<string> };
    const asked: string[] = [];
    const approved = await runWithApproval(agent, 'tidy up', async (tool, args) => (asked.push(`${tool} ${args}`), true));
    expect(asked).toEqual(['delete {"path":"notes.txt"}']);
    expect(approved).toContain('deleted notes.txt');
    expect(approved).toContain('contents of a.md');
    const refused = await runWithApproval(agent, 'tidy up', async () => false);
    expect(refused).not.toContain('deleted notes.txt');
    expect(refused).toContain('contents of a.md');
  });
});
