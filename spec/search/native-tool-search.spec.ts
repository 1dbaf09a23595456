/**
 * Native provider tool search, typed against the official SDKs (checked by `npm run typecheck`, which includes spec/):
 * Anthropic's tool search tool with `defer_loading` and `tool_reference` results, OpenAI Responses' `tool_search` with
 * one namespace per tool group.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Response as OpenAIResponse, ResponseInputItem, Tool as OpenAITool } from 'openai/resources/responses/responses';
import { Tools } from '../../lib';
import { PermissionEngine } from '../../lib/permissions';
import {
  anthropicToolSearchResult,
  anthropicToolSearchTools,
  openAIToolSearchCalls,
  openAIToolSearchOutput,
  openAIToolSearchTools,
  SEARCH_TOOLS,
  ToolSearch,
} from '../../lib/search';

const quiet = { warn: () => undefined, error: () => undefined };
const object = (properties: Record<string, unknown> = {}) => ({ type: 'object', properties, additionalProperties: false }) as never;

function registry(): Tools {
  const tools = new Tools({ logger: quiet });
  tools.action({ name: 'read_file', description: 'Read a file.', params: object({ path: { type: 'string' } }) }, () => 'text');
  tools.action({ name: 'create_pull_request', description: 'Open a pull request.', params: object({ title: { type: 'string' } }), group: 'github' }, () => 'ok');
  tools.action({ name: 'list_issues', description: 'List issues.', params: object(), group: 'github' }, () => 'ok');
  tools.action({ name: 'slack_post_message', description: 'Post a Slack message.', params: object({ text: { type: 'string' } }), group: 'slack' }, () => 'ok');
  tools.action({ name: 'drop_database', description: 'Drop a database.', params: object(), group: 'db' }, () => 'ok');
  return tools;
}

function setup() {
  const tools = registry();
  const search = new ToolSearch(tools, { alwaysListed: ['read_file'], permissions: new PermissionEngine({ settings: { deny: ['drop_database'] } }) });
  return { tools, search };
}

describe('Anthropic tool search', () => {
  it.each([
    ['bm25', { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' }],
    ['regex', { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' }],
  ] as const)('server %s: always-listed tools, the search tool, then every deferred tool with defer_loading', (mode, searchTool) => {
    const { search } = setup();
    const list = anthropicToolSearchTools(search, { mode }) satisfies Anthropic.ToolUnion[];
    expect(list[0]).toEqual({ name: 'read_file', description: 'Read a file.', input_schema: expect.objectContaining({ type: 'object' }) });
    expect(list[0]).not.toHaveProperty('defer_loading');
    expect(list[1]).toEqual(searchTool);
    expect(list.slice(2).map((entry) => [entry.name, (entry as { defer_loading?: boolean }).defer_loading])).toEqual([
      ['create_pull_request', true],
      ['list_issues', true],
      ['slack_post_message', true],
    ]);
    // the array is the same from turn to turn (no session state in it)
    expect(anthropicToolSearchTools(search, { mode })).toEqual(list);
  });

  it('defaults to bm25', () => {
    expect(anthropicToolSearchTools(setup().search)[1]).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
  });

  it('client: search_tools is listed, its result loads the tools found as tool_reference blocks', async () => {
    const { tools, search } = setup();
    const session = search.session();
    const list = anthropicToolSearchTools(search, { mode: 'client', session }) satisfies Anthropic.ToolUnion[];
    expect(list.map((entry) => entry.name)).toEqual(['read_file', SEARCH_TOOLS, 'create_pull_request', 'list_issues', 'slack_post_message']);
    expect(list[1]).not.toHaveProperty('defer_loading');
    const result = await tools.execute(SEARCH_TOOLS, { query: 'open a pull request', limit: 1 }, { session });
    const block = anthropicToolSearchResult('toolu_1', result) satisfies Anthropic.ToolResultBlockParam;
    expect(block).toEqual({ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'tool_reference', tool_name: 'create_pull_request' }] });
    expect((await tools.execute('create_pull_request', { title: 't' }, { session })).ok).toBe(true);
    const none = anthropicToolSearchResult('toolu_2', await tools.execute(SEARCH_TOOLS, { query: 'quantum' }, { session })) satisfies Anthropic.ToolResultBlockParam;
    expect(none).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_2', is_error: false, content: expect.stringContaining('No tool matches') });
    const failed = anthropicToolSearchResult('toolu_3', await tools.execute(SEARCH_TOOLS, { query: '' }, { session }));
    expect(failed).toMatchObject({ is_error: true });
  });

  it('client without a session is refused', () => {
    expect(() => anthropicToolSearchTools(setup().search, { mode: 'client' })).toThrow(expect.objectContaining({ code: 'INVALID_TOOL_SEARCH_OPTION' }));
  });
});

describe('OpenAI Responses tool search', () => {
  it('server: always-listed functions, one namespace per group with deferred functions, then tool_search', () => {
    const { tools, search } = setup();
    tools.createGroup('slack', 'Slack messaging.', { active: true });
    const list = openAIToolSearchTools(search, { namespaces: { github: 'GitHub repositories, issues and pull requests.' } }) satisfies OpenAITool[];
    expect(list.map((entry) => [entry.type, 'name' in entry ? entry.name : undefined])).toEqual([
      ['function', 'read_file'],
      ['function', 'reset_tools'],
      ['namespace', 'github'],
      ['namespace', 'slack'],
      ['tool_search', undefined],
    ]);
    expect(list[2]).toEqual({
      type: 'namespace',
      name: 'github',
      description: 'GitHub repositories, issues and pull requests.',
      tools: [expect.objectContaining({ type: 'function', name: 'create_pull_request', defer_loading: true }), expect.objectContaining({ name: 'list_issues', defer_loading: true })],
    });
    expect(list[3]).toMatchObject({ description: 'Slack messaging.' });
    expect(list[4]).toEqual({ type: 'tool_search' });
    expect(list[0]).not.toHaveProperty('defer_loading');
  });

  it('a group without a description gets one naming its tools; a group name is made a valid namespace name', () => {
    const tools = new Tools({ logger: quiet });
    tools.action({ name: 'a_tool', description: 'A.', params: object(), group: 'my group.v2' }, () => 'ok');
    const list = openAIToolSearchTools(new ToolSearch(tools), { strict: true }) satisfies OpenAITool[];
    expect(list[0]).toMatchObject({ type: 'namespace', name: 'my_group_v2', description: 'Tools of my group.v2: a_tool.' });
    expect((list[0] as { tools: Array<{ strict: boolean }> }).tools[0]!.strict).toBe(true);
  });

  it('client: the model’s tool_search_call runs search_tools and its output loads the found functions in their namespace', async () => {
    const { tools, search } = setup();
    const session = search.session();
    const list = openAIToolSearchTools(search, { execution: 'client', session }) satisfies OpenAITool[];
    expect(list.at(-1)).toEqual({ type: 'tool_search', execution: 'client', description: expect.stringContaining('Find and load tools'), parameters: expect.objectContaining({ required: ['query'] }) });
    const response = {
      output: [
        { type: 'tool_search_call', id: 'ts_1', call_id: 'call_1', execution: 'client', status: 'completed', arguments: { query: 'post a slack message' } },
        { type: 'tool_search_call', id: 'ts_2', call_id: 'call_2', execution: 'server', status: 'completed', arguments: { query: 'x' } },
        { type: 'function_call', call_id: 'call_3', name: 'read_file', arguments: '{}' },
      ],
    } as unknown as OpenAIResponse;
    const calls = openAIToolSearchCalls(search, response);
    expect(calls).toEqual([{ id: 'call_1', name: SEARCH_TOOLS, args: { query: 'post a slack message' } }]);
    expect(openAIToolSearchCalls(search, response.output)).toEqual(calls);
    const result = await tools.execute(calls[0]!.name, calls[0]!.args, { session });
    const output = openAIToolSearchOutput(search, 'call_1', result) satisfies ResponseInputItem;
    expect(output).toEqual({
      type: 'tool_search_output',
      call_id: 'call_1',
      execution: 'client',
      status: 'completed',
      tools: [{ type: 'namespace', name: 'slack', description: expect.any(String), tools: [expect.objectContaining({ name: 'slack_post_message', defer_loading: true })] }],
    });
    expect(openAIToolSearchOutput(search, 'call_9', tools.declined('search_tools')).tools).toEqual([]);
    expect(openAIToolSearchCalls(search, [null as never])).toEqual([]);
  });

  it('client without a session is refused', () => {
    expect(() => openAIToolSearchTools(setup().search, { execution: 'client' })).toThrow(expect.objectContaining({ code: 'INVALID_TOOL_SEARCH_OPTION' }));
  });
});
