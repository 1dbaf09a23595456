/**
 * Anthropic programmatic tool calling: `allowed_callers` from the tool's metadata and from `anthropicTools`' option,
 * and a `tool_use` block made by code execution (it has a `caller`) executed and answered like any other call.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { CoreError, executeToolCalls, Tools, ToolSchemaFormat } from '../../lib';
import { ALLOWED_CALLERS, anthropicToolResultMessage, anthropicTools, anthropicToolUses } from '../../lib/providers/anthropic';

const QUERY = { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'], additionalProperties: false } as const;

function registry(): { tools: Tools; warn: jest.Mock; ran: string[] } {
  const warn = jest.fn();
  const ran: string[] = [];
  const tools = new Tools({ logger: { warn, error: jest.fn() } });
  tools.action({ name: 'query', description: 'Run a read-only SQL query.', params: QUERY, metadata: { [ALLOWED_CALLERS]: ['code_execution_20260120'] } }, ({ sql }) => {
    ran.push(String(sql));
    return [{ region: 'W', revenue: 10 }];
  });
  tools.action({ name: 'note', description: 'Keep a note.', params: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }, ({ text }) => `noted ${String(text)}`);
  tools.action({ name: 'wipe', description: 'Delete everything.', params: { type: 'object', properties: {} }, requiresApproval: true }, () => 'wiped');
  return { tools, warn, ran };
}

describe('anthropicTools: allowed_callers', () => {
  it('sends a tool metadata declaration; tools without one get none; the entries are SDK tools', () => {
    const { tools } = registry();
    const list = anthropicTools(tools) satisfies Anthropic.Tool[];
    expect(list.find((entry) => entry.name === 'query')?.allowed_callers).toEqual(['code_execution_20260120']);
    expect(list.find((entry) => entry.name === 'note')).not.toHaveProperty('allowed_callers');
    // getSchema's cached entries are not changed.
    expect(tools.getSchema(ToolSchemaFormat.ANTHROPIC).find((entry) => entry.name === 'query')).not.toHaveProperty('allowed_callers');
  });

  it('a list option is the default of tools that declare none; a function decides per tool', () => {
    const { tools } = registry();
    const list = anthropicTools(tools, { allowedCallers: ['direct', 'code_execution_20260120'] });
    expect(Object.fromEntries(list.map((entry) => [entry.name, entry.allowed_callers]))).toEqual({
      query: ['code_execution_20260120'],
      note: ['direct', 'code_execution_20260120'],
      wipe: ['direct', 'code_execution_20260120'],
    });
    const decided = anthropicTools(tools, { allowedCallers: (tool) => (tool.name === 'wipe' ? ['direct'] : undefined) });
    expect(Object.fromEntries(decided.map((entry) => [entry.name, entry.allowed_callers]))).toEqual({ query: undefined, note: undefined, wipe: ['direct'] });
  });

  it('keeps cache_control on the last entry beside allowed_callers', () => {
    const { tools } = registry();
    const list = anthropicTools(tools, { allowedCallers: ['code_execution_20260521'], cacheControl: { type: 'ephemeral' } });
    expect(list[2]).toMatchObject({ name: 'wipe', allowed_callers: ['code_execution_20260521'], cache_control: { type: 'ephemeral' } });
    expect(list[0]).not.toHaveProperty('cache_control');
  });

  it.each([
    ['an empty list', []],
    ['an unknown caller', ['model']],
    ['a repeated caller', ['direct', 'direct']],
    ['not a list', 'direct'],
    ['a number', [20260120]],
  ])('refuses %s in the metadata, naming the tool', (_, value) => {
    const tools = new Tools();
    tools.action({ name: 'bad', description: 'Bad.', params: { type: 'object', properties: {} }, metadata: { [ALLOWED_CALLERS]: value } }, () => 1);
    expect(() => anthropicTools(tools)).toThrow(CoreError);
    expect(() => anthropicTools(tools)).toThrow(/Tool 'bad': its metadata.allowedCallers must be a non-empty list/);
  });

  it('refuses a malformed option, naming the option', () => {
    const { tools } = registry();
    expect(() => anthropicTools(tools, { allowedCallers: ['code_execution'] as never })).toThrow(/Tool 'note': the allowedCallers option of anthropicTools/);
    expect(() => anthropicTools(tools, { allowedCallers: () => [] })).toThrow(/Tool 'query': the allowedCallers option/);
  });

  it('takes a later code execution version at run time', () => {
    const tools = new Tools();
    tools.action({ name: 'later', description: 'Later.', params: { type: 'object', properties: {} }, metadata: { [ALLOWED_CALLERS]: ['code_execution_20271231'] } }, () => 1);
    expect(anthropicTools(tools)[0]!.allowed_callers).toEqual(['code_execution_20271231']);
  });

  it('with strict, sends a tool callable from code non-strict with a warning, and does not count it against the limits', () => {
    const { tools, warn } = registry();
    const list = anthropicTools(tools, { strict: true, allowedCallers: (tool) => (tool.name === 'note' ? ['direct'] : tool.name === 'query' ? ['direct', 'code_execution_20260120'] : undefined) });
    expect(list.find((entry) => entry.name === 'query')).toMatchObject({ strict: false, allowed_callers: ['direct', 'code_execution_20260120'] });
    expect(list.find((entry) => entry.name === 'note')).toMatchObject({ strict: true, allowed_callers: ['direct'] });
    expect(list.find((entry) => entry.name === 'wipe')).toMatchObject({ strict: true });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("Tool 'query' is sent without strict tool use: programmatic tool calling"));
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe('a tool_use block made by code execution', () => {
  const content: Anthropic.ContentBlock[] = [
    { type: 'server_tool_use', id: 'srvtoolu_1', name: 'code_execution', input: { code: 'await query(...)' }, caller: { type: 'direct' } },
    { type: 'tool_use', id: 'toolu_a', name: 'query', input: { sql: 'select 1' }, caller: { type: 'code_execution_20260120', tool_id: 'srvtoolu_1' } },
    { type: 'tool_use', id: 'toolu_b', name: 'wipe', input: {}, caller: { type: 'code_execution_20260120', tool_id: 'srvtoolu_1' } },
    { type: 'tool_use', id: 'toolu_c', name: 'query', input: { sql: 42 }, caller: { type: 'code_execution_20250825', tool_id: 'srvtoolu_1' } },
  ];
  const message: Pick<Anthropic.Message, 'content' | 'stop_reason'> = { content, stop_reason: 'tool_use' };

  it('is parsed with its own tool_use id, executed through the pipeline and answered with that id', async () => {
    const { tools, ran } = registry();
    const calls = anthropicToolUses(message);
    expect(calls).toEqual([
      { id: 'toolu_a', name: 'query', args: { sql: 'select 1' } },
      { id: 'toolu_b', name: 'wipe', args: {} },
      { id: 'toolu_c', name: 'query', args: { sql: 42 } },
    ]);
    const approve = jest.fn(() => false);
    const outcomes = await executeToolCalls(tools, calls, { approve });
    const reply = anthropicToolResultMessage(outcomes) satisfies Anthropic.MessageParam;
    expect(reply.content.map((block) => [block.type, block.tool_use_id, block.is_error])).toEqual([
      ['tool_result', 'toolu_a', false],
      ['tool_result', 'toolu_b', true],
      ['tool_result', 'toolu_c', true],
    ]);
    // The approval step and validation apply as to a direct call: the declined call and the invalid one did not run.
    expect(approve).toHaveBeenCalledTimes(1);
    expect(ran).toEqual(['select 1']);
    expect(reply.content[0]!.content).toContain('"region":"W"');
  });
});
