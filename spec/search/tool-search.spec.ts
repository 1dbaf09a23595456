import { PermissionBehavior, PermissionEngine } from '../../lib/permissions';
import { ActionResult, descriptionFromContext, executeToolCalls, InjectionToken, provided, runToolCalls, ToolContext, Tools, ToolSchemaFormat } from '../../lib';
import { anthropicTools } from '../../lib/providers/anthropic';
import { SEARCH_TOOLS, ToolSearch, ToolSearchError, type ToolSearchFound } from '../../lib/search';
import { normalizeTerm, tokenize } from '../../lib/search/search-index';

const quiet = { warn: () => undefined, error: () => undefined };
const object = (properties: Record<string, unknown> = {}) => ({ type: 'object', properties, additionalProperties: false }) as never;

/** A small registry of realistic tools: names, descriptions, parameters, tags and groups differ. */
function registry(): Tools {
  const tools = new Tools({ logger: quiet });
  const add = (name: string, description: string, properties: Record<string, unknown> = {}, extra: { group?: string; tags?: string[] } = {}) =>
    tools.action({ name, description, params: object(properties), ...extra }, (params) => `${name} ran with ${JSON.stringify(params)}`);
  add('read_file', 'Read the complete contents of a file from disk.', { path: { type: 'string', description: 'Path of the file.' } });
  add('create_pull_request', 'Create a new pull request in a GitHub repository.', { title: { type: 'string' }, head: { type: 'string' } }, { group: 'github' });
  add('list_issues', 'List issues of a GitHub repository with filters.', { state: { type: 'string', description: 'open or closed' } }, { group: 'github' });
  add('slack_post_message', 'Post a new message to a Slack channel.', { channel_id: { type: 'string' }, text: { type: 'string' } }, { group: 'slack' });
  add('kubectl_logs', 'Get logs from pods or deployments in a Kubernetes cluster.', { name: { type: 'string' } }, { group: 'kubernetes' });
  add('maps_geocode', 'Convert an address into geographic coordinates.', { address: { type: 'string' } }, { group: 'maps' });
  add('query', 'Run a read-only SQL query.', { sql: { type: 'string', description: 'The statement to run against the warehouse database.' } }, { group: 'postgres' });
  add('generate_pie_chart', 'Draw a chart.', {}, { group: 'chart', tags: ['visualisation', 'proportions'] });
  add('drop_database', 'Drop a database and all of its collections.', { database: { type: 'string' } }, { group: 'mongodb' });
  return tools;
}

const names = (hits: ReadonlyArray<{ tool: { name: string } }>) => hits.map((hit) => hit.tool.name);
const listed = (tools: Tools, session: Parameters<Tools['getSchema']>[2]) => tools.getSchema(ToolSchemaFormat.OPENAI_RESPONSES, undefined, session).map((entry) => entry.name);

describe('ToolSearch: ranking', () => {
  const search = new ToolSearch(registry(), { alwaysListed: ['read_file'] });

  it.each([
    ['open a pull request', 'create_pull_request'],
    ['post to a slack channel', 'slack_post_message'],
    ['pod logs', 'kubectl_logs'],
    ['latitude longitude of an address', 'maps_geocode'],
  ])('"%s" ranks %s first', (query, expected) => {
    expect(names(search.search(query))[0]).toBe(expected);
  });

  it('reads parameter names and descriptions, tags and camelCase or snake_case name parts', () => {
    expect(names(search.search('warehouse statement'))[0]).toBe('query');
    expect(names(search.search('proportions visualisation'))[0]).toBe('generate_pie_chart');
    expect(names(search.search('geocode'))[0]).toBe('maps_geocode');
  });

  it('finds longer words from a prefix and words one typo away, below exact matches', () => {
    expect(names(search.search('deploy'))).toContain('kubectl_logs');
    expect(names(search.search('kubernets'))[0]).toBe('kubectl_logs');
    expect(names(search.search('repositry pul'))).toEqual(expect.arrayContaining(['create_pull_request', 'list_issues']));
  });

  it('returns at most limit hits, best first, and nothing for an empty or stop-word query', () => {
    expect(search.search('repository github', { limit: 1 })).toHaveLength(1);
    const hits = search.search('repository github pull request issues');
    expect(names(hits).slice(0, 2).sort()).toEqual(['create_pull_request', 'list_issues']);
    expect(hits.map((hit) => hit.score)).toEqual([...hits.map((hit) => hit.score)].sort((a, b) => b - a));
    expect(search.search('   ')).toEqual([]);
    expect(search.search('the of a')).toEqual([]);
    expect(search.search('repository', { limit: 0 })).toEqual([]);
    expect(search.search('zzzz qqqq')).toEqual([]);
  });

  it('never returns always-listed tools (they are listed already)', () => {
    expect(names(search.search('read the contents of a file'))).not.toContain('read_file');
  });
});

describe('ToolSearch: how words match at scale', () => {
  const build = (entries: Array<[string, string, Record<string, unknown>?]>) => {
    const tools = new Tools({ logger: quiet });
    for (const [name, description, properties] of entries) tools.action({ name, description, params: object(properties) }, () => name);
    return tools;
  };

  it('retries with one typo for every long word when a known word finds fewer tools than asked for', () => {
    const search = new ToolSearch(build([
      ['plant_seeds', 'Plant chard seeds in the garden.'],
      ['draw_chart', 'Draw a chart of numbers.'],
    ]));
    // `chard` is a word of plant_seeds: the first pass finds one tool, the typo pass adds draw_chart below it
    expect(names(search.search('chard')).sort()).toEqual(['draw_chart', 'plant_seeds']);
    // one tool asked for, one found: no typo pass
    expect(names(search.search('chard', { limit: 1 }))).toEqual(['plant_seeds']);
    // a misspelled word no tool has matches one edit away at once, whatever the limit
    expect(names(search.search('chaart', { limit: 1 }))).toEqual(['draw_chart']);
    // four letters are too few for a typo
    expect(names(search.search('chad'))).toEqual([]);
  });

  it('completes a last word that no tool has as a whole word, and only the last one', () => {
    const search = new ToolSearch(build([
      ['port_scan', 'Scan the open ports of a host.'],
      ['portal_login', 'Log in to the customer portal.'],
      ['pod_logs', 'Get the logs of a Kubernetes pod.'],
      ['list_nodes', 'List the nodes of a cluster.'],
    ]));
    // `port` is a whole word of port_scan: not completed to `portal`
    expect(names(search.search('port'))).toEqual(['port_scan']);
    expect(names(search.search('kube'))).toEqual(['pod_logs']);
    // not the last word: not completed
    expect(names(search.search('kube nodes'))).toEqual(['list_nodes']);
    expect(names(search.search('nodes kube')).sort()).toEqual(['list_nodes', 'pod_logs']);
  });

  it('does not search a long field for a word most tools have there (from 21 tools on), and still searches names and other fields', () => {
    const entries: Array<[string, string, Record<string, unknown>?]> = Array.from({ length: 24 }, (_, k) => [`tool_${k}`, `Store a ledger entry of kind ${k}.`]);
    entries.push(['close_ledger', 'Close the books for the month.'], ['export_rows', 'Export rows as CSV.', { ledger: { type: 'string', description: 'The ledger to export.' } }]);
    const tools = build(entries);
    const search = new ToolSearch(tools, { maxResults: 50 });
    // `ledger` is in 24 of 26 descriptions: found by name and by parameter text only
    expect(names(search.search('ledger'))).toEqual(['close_ledger', 'export_rows']);
    // the other words of a description are still searched there
    expect(names(search.search('ledger 7'))).toEqual(expect.arrayContaining(['close_ledger', 'export_rows', 'tool_7']));
    expect(names(search.search('ledger 7'))).toHaveLength(3);
    // fewer tools: every field is searched again (the counts follow unregistrations)
    tools.unregister(...entries.slice(4, 24).map(([name]) => name));
    expect(names(search.search('ledger')).sort()).toEqual(['close_ledger', 'export_rows', 'tool_0', 'tool_1', 'tool_2', 'tool_3']);
  });

  it('counts a removed tool out with the description it was indexed with, though the context changed since', () => {
    const Region = new InjectionToken<string>('Region');
    const tools = new Tools({ logger: quiet });
    tools.action({ name: 'weather_report', description: descriptionFromContext(Region, (region) => `Forecast for ${region}.`, 'Forecast.'), params: object() }, () => 'sunny');
    tools.action({ name: 'tide_table', description: 'Tides of the harbours of laplanders.', params: object() }, () => 'high');
    tools.setContext(new ToolContext().provide(Region, 'Lapland'));
    const search = new ToolSearch(tools);
    // `lapland` is a word of weather_report: matched as a whole word only
    expect(names(search.search('lapland'))).toEqual(['weather_report']);
    tools.setContext(new ToolContext().provide(Region, 'Norway'));
    tools.unregister('weather_report');
    // no tool has `lapland` any more: as the last word it is completed (`laplanders`)
    expect(names(search.search('lapland'))).toEqual(['tide_table']);
  });

  it('searches every field in a small registry, however common the word', () => {
    const tools = build(Array.from({ length: 12 }, (_, k): [string, string] => [`tool_${k}`, `Store a ledger entry of kind ${k}.`]));
    expect(new ToolSearch(tools, { maxResults: 50 }).search('ledger')).toHaveLength(12);
  });
});

describe('ToolSearch: only tools the model may use are found', () => {
  it('leaves out tools unavailable in the context, and finds them where available', () => {
    const tools = registry();
    const Admin = new InjectionToken<{ admin: true }>('Admin');
    tools.action({ name: 'delete_user', description: 'Delete a user account.', params: object(), availableWhen: provided(Admin) }, () => 'deleted');
    const search = new ToolSearch(tools);
    expect(names(search.search('delete user account'))).not.toContain('delete_user');
    const admin = new ToolContext().provide(Admin, { admin: true });
    expect(names(search.search('delete user account', { context: admin }))[0]).toBe('delete_user');
  });

  it('leaves out tools whose availability check throws (fail closed)', () => {
    const tools = registry();
    tools.action({ name: 'broken_check', description: 'Archive old records.', params: object(), availableWhen: provided(new InjectionToken('x')).and({ isAvailable: () => { throw new Error('boom'); } } as never) }, () => 'x');
    expect(names(new ToolSearch(tools).search('archive old records'))).not.toContain('broken_check');
  });

  it('leaves out tools of an inactive group until it is switched on', () => {
    const tools = registry();
    tools.createGroup('github', 'GitHub repositories, issues and pull requests.');
    const search = new ToolSearch(tools);
    expect(names(search.search('open a pull request'))).not.toContain('create_pull_request');
    tools.setGroupsActive({ github: true });
    expect(names(search.search('open a pull request'))[0]).toBe('create_pull_request');
  });

  it('leaves out tools a tool-wide deny rule names, not those a content rule names, and follows rule changes', () => {
    const tools = registry();
    const engine = new PermissionEngine({ settings: { deny: ['drop_database', 'query(DROP:*)'] } });
    const search = new ToolSearch(tools, { permissions: engine });
    expect(names(search.search('drop a database'))).not.toContain('drop_database');
    expect(names(search.search('run a sql query'))).toContain('query');
    engine.addRules(['kubectl_logs'], PermissionBehavior.DENY);
    expect(names(search.search('pod logs'))).not.toContain('kubectl_logs');
    expect(search.deferred().map((tool) => tool.name)).not.toEqual(expect.arrayContaining(['drop_database', 'kubectl_logs']));
    // denied tools are refused and never listed, even when the host marked them discovered
    const session = search.session(['drop_database']);
    expect(listed(tools, session)).not.toContain('drop_database');
  });
});

describe('ToolSearchSession: conversation state', () => {
  it('lists the always-listed tools and search_tools, then appends discoveries in discovery order', async () => {
    const tools = registry();
    const search = new ToolSearch(tools, { alwaysListed: ['read_file'] });
    const session = search.session();
    expect(listed(tools, session)).toEqual(['read_file', SEARCH_TOOLS]);
    const first = tools.getSchema(ToolSchemaFormat.OPENAI_RESPONSES, undefined, session);
    await tools.execute(SEARCH_TOOLS, { query: 'pod logs', limit: 1 }, { session });
    await tools.execute(SEARCH_TOOLS, { query: 'open a pull request', limit: 1 }, { session });
    const after = tools.getSchema(ToolSchemaFormat.OPENAI_RESPONSES, undefined, session);
    expect(after.map((e) => e.name)).toEqual(['read_file', SEARCH_TOOLS, 'kubectl_logs', 'create_pull_request']);
    // the earlier part of the listing is unchanged, entry for entry, so a prompt cache over it stays valid
    expect(after.slice(0, 2)).toEqual(first);
    expect(after[0]).toBe(first[0]);
    await tools.execute(SEARCH_TOOLS, { query: 'pod logs', limit: 1 }, { session });
    expect(listed(tools, session)).toEqual(['read_file', SEARCH_TOOLS, 'kubectl_logs', 'create_pull_request']);
    expect(session.discovered).toEqual(['kubectl_logs', 'create_pull_request']);
  });

  it('keeps two conversations on one registry apart', async () => {
    const tools = registry();
    const search = new ToolSearch(tools);
    const alice = search.session();
    const bob = search.session();
    await tools.execute(SEARCH_TOOLS, { query: 'slack message' }, { session: alice });
    expect(listed(tools, alice)).toContain('slack_post_message');
    expect(listed(tools, bob)).toEqual([SEARCH_TOOLS]);
    expect((await tools.execute('slack_post_message', { channel_id: 'c', text: 'hi' }, { session: alice })).ok).toBe(true);
    const refused = await tools.execute('slack_post_message', { channel_id: 'c', text: 'hi' }, { session: bob });
    expect(refused.ok).toBe(false);
  });

  it('refuses a call of an undiscovered deferred tool with a message that says to search first', async () => {
    const tools = registry();
    const search = new ToolSearch(tools, { alwaysListed: ['read_file'] });
    const session = search.session();
    const refused = await tools.execute('kubectl_logs', { name: 'web' }, { session });
    expect(refused.ok).toBe(false);
    expect(refused.error).toBe(`Tool 'kubectl_logs' is not loaded in this conversation. Call ${SEARCH_TOOLS} with a few words about what you need first; the tools it finds can be called from then on.`);
    expect((await tools.execute('read_file', { path: 'a' }, { session })).ok).toBe(true);
    // without a session the registry behaves as before: every tool is listed and callable
    expect((await tools.execute('kubectl_logs', { name: 'web' })).ok).toBe(true);
    expect(tools.getSchema(ToolSchemaFormat.OPENAI)).toHaveLength(9);
  });

  it('answers an unknown name with the session listing only, not the whole registry', async () => {
    const tools = registry();
    const session = new ToolSearch(tools, { alwaysListed: ['read_file'] }).session();
    const result = await tools.execute('nope', {}, { session });
    expect(result.error).toBe(`Unknown tool 'nope'. Available: read_file, ${SEARCH_TOOLS}`);
  });

  it('search_tools returns the tools found with their descriptions, and says so when nothing matches', async () => {
    const tools = registry();
    const session = new ToolSearch(tools, { maxResults: 2 }).session();
    const result = await tools.execute(SEARCH_TOOLS, { query: 'github repository' }, { session });
    const found = result.result as ToolSearchFound;
    expect(found.tools.map((tool) => tool.name).sort()).toEqual(['create_pull_request', 'list_issues']);
    expect(found.tools[0]!.description).toMatch(/GitHub repository/);
    expect(found.message).toMatch(/^These 2 tools are loaded now/);
    const one = (await tools.execute(SEARCH_TOOLS, { query: 'slack', limit: 1 }, { session })).result as ToolSearchFound;
    expect(one.message).toMatch(/^This tool is loaded now: call it/);
    const none = (await tools.execute(SEARCH_TOOLS, { query: 'quantum teleportation' }, { session })).result as ToolSearchFound;
    expect(none).toEqual({ tools: [], message: 'No tool matches "quantum teleportation". Try other words: the action, the service or the kind of object.' });
    expect((await tools.execute(SEARCH_TOOLS, { query: '' }, { session })).ok).toBe(false);
    expect((await tools.execute(SEARCH_TOOLS, { query: 'x', limit: 3 }, { session })).ok).toBe(false);
    expect((await tools.execute(SEARCH_TOOLS, { query: 'x' })).error).toMatch(/^Unknown tool 'search_tools'/);
  });

  it('resumes a stored conversation and takes host-side discoveries of registered tools only', async () => {
    const tools = registry();
    const search = new ToolSearch(tools);
    const session = search.session(['maps_geocode']).discover('kubectl_logs', 'not_registered');
    expect(session.discovered).toEqual(['maps_geocode', 'kubectl_logs']);
    expect(listed(tools, session)).toEqual([SEARCH_TOOLS, 'maps_geocode', 'kubectl_logs']);
    expect((await tools.execute('maps_geocode', { address: 'x' }, { session })).ok).toBe(true);
  });

  it('a discovered tool that becomes unavailable leaves the listing and comes back with its group', async () => {
    const tools = registry();
    tools.createGroup('slack', 'Slack messages.', { active: true });
    const session = new ToolSearch(tools).session(['slack_post_message']);
    expect(listed(tools, session)).toContain('slack_post_message');
    tools.setGroupsActive({ slack: false });
    expect(listed(tools, session)).not.toContain('slack_post_message');
    tools.setGroupsActive({ slack: true });
    expect(listed(tools, session)).toContain('slack_post_message');
  });

  it('lists always-listed names in the order given, leaving out those not offered', () => {
    const tools = registry();
    tools.createGroup('slack', 'Slack.');
    const session = new ToolSearch(tools, { alwaysListed: ['list_issues', 'slack_post_message', 'read_file', 'not_registered'] }).session();
    expect(listed(tools, session)).toEqual(['reset_tools', 'list_issues', 'read_file', SEARCH_TOOLS]);
  });

  it('reset_tools stays listed with deferral, and a predicate chooses the always-listed tools', () => {
    const tools = registry();
    tools.createGroup('maps', 'Maps.', { active: true });
    const session = new ToolSearch(tools, { alwaysListed: (tool) => tool.group === 'github' }).session();
    expect(listed(tools, session)).toEqual(['create_pull_request', 'list_issues', 'reset_tools', SEARCH_TOOLS]);
  });
});

describe('ToolSearch: the index follows the registry', () => {
  it('finds tools registered after the first search, and drops unregistered ones', () => {
    const tools = registry();
    const search = new ToolSearch(tools);
    expect(search.search('invoice refund')).toEqual([]);
    tools.action({ name: 'refund_invoice', description: 'Refund a paid invoice.', params: object() }, () => 'ok');
    expect(names(search.search('invoice refund'))).toEqual(['refund_invoice']);
    tools.unregister('refund_invoice');
    expect(search.search('invoice refund')).toEqual([]);
    // a change that is not a registration (a group switch) keeps the index
    tools.setContext(new ToolContext());
    expect(names(search.search('pod logs'))[0]).toBe('kubectl_logs');
  });

  it('a name registered again is searched by its new definition only', () => {
    const tools = registry();
    const search = new ToolSearch(tools);
    tools.action({ name: 'refund_invoice', description: 'Refund a paid invoice.', params: object() }, () => 'ok');
    expect(names(search.search('invoice refund'))).toEqual(['refund_invoice']);
    tools.unregister('refund_invoice');
    tools.action({ name: 'refund_invoice', description: 'Reverse a card payment.', params: object() }, () => 'ok');
    expect(search.search('paid')).toEqual([]);
    expect(names(search.search('reverse card payment'))).toEqual(['refund_invoice']);
  });

  it('loads the search library on the first search, not when agenttoolkit/search is imported or a session lists', () => {
    let loads = 0;
    jest.doMock('minisearch', () => {
      loads++;
      return jest.requireActual('minisearch');
    });
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh module instance inside the isolated registry
      const fresh = require('../../lib/search') as typeof import('../../lib/search');
      const tools = registry();
      const search = new fresh.ToolSearch(tools);
      tools.getSchema(ToolSchemaFormat.OPENAI, undefined, search.session());
      expect(loads).toBe(0);
      expect(names(search.search('pod logs'))[0]).toBe('kubectl_logs');
      expect(names(search.search('slack channel'))[0]).toBe('slack_post_message');
      expect(loads).toBe(1);
    });
    jest.dontMock('minisearch');
  });

  it('indexes a tool whose description renderer throws by its other fields', () => {
    const tools = registry();
    tools.action({ name: 'weather_forecast', description: { render: () => { throw new Error('no'); } } as never, params: object() }, () => 'sunny');
    expect(names(new ToolSearch(tools).search('weather forecast'))).toContain('weather_forecast');
  });
});

describe('ToolSearch options', () => {
  it.each([0, 51, 2.5, Number.NaN])('refuses maxResults %p', (maxResults) => {
    expect(() => new ToolSearch(registry(), { maxResults })).toThrow(expect.objectContaining({ code: 'INVALID_TOOL_SEARCH_OPTION' }));
  });

  it('refuses a toolName that is not a tool name or is registered', () => {
    expect(() => new ToolSearch(registry(), { toolName: 'find tools' })).toThrow(ToolSearchError);
    expect(() => new ToolSearch(registry(), { toolName: 'read_file' })).toThrow(/already registered/);
    const tools = registry();
    const session = new ToolSearch(tools, { toolName: 'find_tools' }).session();
    expect(listed(tools, session)).toEqual(['find_tools']);
  });
});

describe('tokenizer', () => {
  it.each([
    ['getPullRequest', ['get', 'Pull', 'Request']],
    ['HTTPServer', ['HTTP', 'Server']],
    ['API-post-search', ['API', 'post', 'search']],
    ['read_file v2Api', ['read', 'file', 'v2', 'Api']],
    ['ÉtéCafé naïve', ['Été', 'Café', 'naïve']],
    ['S3Bucket', ['S3', 'Bucket']],
    ['', []],
  ])('%p -> %p', (text, words) => {
    expect(tokenize(text)).toEqual(words);
  });

  it('lower-cases, drops a plural s and stop words', () => {
    expect(['Files', 'class', 'status', 'analysis', 'the', 'Pods', 'bus'].map(normalizeTerm)).toEqual(['file', 'class', 'status', 'analysis', null, 'pod', 'bus']);
  });

  it('results are ActionResults of the registry', async () => {
    const tools = registry();
    const session = new ToolSearch(tools).session();
    expect(await tools.execute(SEARCH_TOOLS, { query: 'slack' }, { session })).toBeInstanceOf(ActionResult);
  });
});

describe('sessions in the call helpers', () => {
  function withApproval() {
    const tools = registry();
    tools.action({ name: 'delete_branch', description: 'Delete a git branch.', params: object({ branch: { type: 'string' } }), requiresApproval: true }, () => 'deleted');
    return tools;
  }

  it('executeToolCalls: an undiscovered tool is refused without asking for approval; search_tools runs; a found tool asks', async () => {
    const tools = withApproval();
    const session = new ToolSearch(tools).session();
    const asked: string[] = [];
    const approve = (tool: { name: string }) => (asked.push(tool.name), true);
    const [refused, searched] = await executeToolCalls(tools, [
      { id: '1', name: 'delete_branch', args: { branch: 'x' } },
      { id: '2', name: SEARCH_TOOLS, args: { query: 'delete a git branch' } },
    ], { session, approve });
    expect(refused!.result.error).toMatch(/^Tool 'delete_branch' is not loaded in this conversation/);
    expect((searched!.result.result as ToolSearchFound).tools.map((t) => t.name)).toContain('delete_branch');
    expect(asked).toEqual([]);
    const [ran] = await executeToolCalls(tools, [{ id: '3', name: 'delete_branch', args: { branch: 'x' } }], { session, approve });
    expect(asked).toEqual(['delete_branch']);
    expect(ran!.result.result).toBe('deleted');
  });

  it('runToolCalls: a refused call runs (and fails) instead of waiting for approval; the session reaches execute', async () => {
    const tools = withApproval();
    const session = new ToolSearch(tools).session();
    const first = await runToolCalls(tools, [{ id: '1', name: 'delete_branch', args: { branch: 'x' } }, { id: '2', name: SEARCH_TOOLS, args: { query: 'git branch' } }], { session });
    expect(first.waiting).toEqual([]);
    expect(first.ran.map((r) => r.result.ok)).toEqual([false, true]);
    const second = await runToolCalls(tools, [{ id: '3', name: 'delete_branch', args: { branch: 'x' } }], { session });
    expect(second.waiting.map((w) => w.reason)).toEqual(['approval']);
  });

  it('anthropicTools lists what the session lists', async () => {
    const tools = registry();
    const session = new ToolSearch(tools, { alwaysListed: ['read_file'] }).session(['list_issues']);
    expect(anthropicTools(tools, { session }).map((t) => t.name)).toEqual(['read_file', SEARCH_TOOLS, 'list_issues']);
    expect(anthropicTools(tools, { session, strict: true }).map((t) => t.name)).toEqual(['read_file', SEARCH_TOOLS, 'list_issues']);
  });
});
