import { Type, type Static } from '@sinclair/typebox';
import {
  Action,
  ActionResult,
  Inject,
  AGENT_STATE,
  EXTERNAL_EXECUTION_KEY,
  ExternalExecutionRequest,
  FunctionTool,
  isExternalRequest,
  RESET_TOOLS,
  ToolBase,
  ToolChunk,
  ToolContext,
  ToolDefinitionError,
  ToolGroup,
  ToolResponse,
  ToolResultState,
  Tools,
  ToolSchemaFormat,
  type ToolInvocation,
} from '../../lib';
import { PermissionBehavior, PermissionDecision, PermissionEngine } from '../../lib/permissions';

const ApprovalInput = Type.Object({ action: Type.String(), reason: Type.String(), urgent: Type.Boolean({ default: false }) });

class HumanApproval extends ToolBase<typeof ApprovalInput> {
  constructor() {
    super({ name: 'HumanApproval', description: 'Ask a human.', inputSchema: ApprovalInput, isExternalTool: true, isConcurrencySafe: true });
  }
  checkPermissions(): PermissionDecision {
    return PermissionDecision.allow('External tool dispatch is always allowed.');
  }
}

describe('external execution', () => {
  it('returns a request with the call id and validated params instead of running, and takes the result back', async () => {
    const tools = new Tools().register(new HumanApproval());
    const tool = tools.get('HumanApproval')!;
    expect(tool.isExternalTool).toBe(true);
    expect(() => tool.invoke({}, { context: new ToolContext(), signal: new AbortController().signal })).toThrow(/executed externally/);
    const pending = await tools.execute('HumanApproval', '{"action":"deploy","reason":"release"}', { callId: 'call_1' });
    expect(pending.ok).toBe(true);
    const request = pending.result as ExternalExecutionRequest;
    expect(isExternalRequest(request)).toBe(true);
    expect(request.toJSON()).toEqual({ callId: 'call_1', name: 'HumanApproval', params: { action: 'deploy', reason: 'release', urgent: false } });
    expect(Object.isFrozen(request)).toBe(true);
    expect((await tools.completeExternal(request, 'approved by Ann')).toJSON()).toEqual({ ok: true, result: 'approved by Ann' });
    expect((await tools.completeExternal(request, ActionResult.fail('rejected'))).error).toBe('rejected');
    expect((await tools.completeExternal(request, ToolChunk.text('partial', { state: ToolResultState.ERROR }))).error).toBe('partial');
    expect((await tools.completeExternal(request, new ToolResponse().append(ToolChunk.text('done')))).result).toBe('done');
    async function* chunks() {
      yield ToolChunk.text('a');
      yield ToolChunk.text('b');
    }
    expect((await tools.completeExternal(request, chunks())).result).toBe('ab');
  });

  it('validates arguments first and generates a call id when none is given', async () => {
    const tools = new Tools().register(new HumanApproval());
    expect((await tools.execute('HumanApproval', { action: 'x' })).error).toMatch(/reason/);
    const request = (await tools.execute('HumanApproval', { action: 'x', reason: 'y' })).result as ExternalExecutionRequest;
    expect(request.callId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('streams the request as one chunk', async () => {
    const tools = new Tools().register(new HumanApproval());
    const stream = tools.stream('HumanApproval', { action: 'x', reason: 'y' }, { callId: 'c9' });
    const chunks: ToolChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect((chunks[0]!.metadata[EXTERNAL_EXECUTION_KEY] as ExternalExecutionRequest).callId).toBe('c9');
    expect(isExternalRequest((await stream.result).result)).toBe(true);
  });

  it('refuses to complete a request for a tool that is not external', async () => {
    const tools = new Tools().register(new FunctionTool(() => 1, { name: 'plain', description: 'd' }));
    await expect(tools.completeExternal(new ExternalExecutionRequest('c', 'plain', {}), 1)).rejects.toMatchObject({ code: 'NOT_EXTERNAL' });
    await expect(tools.completeExternal(new ExternalExecutionRequest('c', 'missing', {}), 1)).rejects.toMatchObject({ code: 'NOT_EXTERNAL' });
  });
});

describe('FunctionTool and state injection', () => {
  const Weather = Type.Object({ city: Type.String(), unit: Type.String({ default: 'celsius' }) });

  it('wraps a function: name, defaults and ASK by default', async () => {
    function get_weather({ city, unit }: Static<typeof Weather>): string {
      return `22° ${unit} in ${city}`;
    }
    const tool = new FunctionTool(get_weather, { description: 'Weather.', params: Weather });
    expect([tool.name, tool.group, tool.isConcurrencySafe, tool.isReadOnly, tool.isStateInjected]).toEqual(['get_weather', 'basic', true, false, false]);
    const tools = new Tools().register(tool);
    expect((await tools.execute('get_weather', { city: 'Oslo' })).result).toBe('22° celsius in Oslo');
    const decision = await new PermissionEngine().check(tool, { city: 'Oslo' });
    expect(decision.behavior).toBe(PermissionBehavior.ASK);
    expect((await new PermissionEngine({ settings: { allow: ['get_weather'] } }).check(tool, { city: 'Oslo' })).behavior).toBe(PermissionBehavior.ALLOW);
    expect(() => new FunctionTool(() => 1, { description: 'anonymous' })).toThrow(ToolDefinitionError);
  });

  it('injects the agent state from the context, and fails clearly without it', async () => {
    const counter = new FunctionTool(
      (_p, { state }: ToolInvocation) => {
        state!.count = ((state!.count as number | undefined) ?? 0) + 1;
        return state!.count;
      },
      { name: 'count', description: 'd', isStateInjected: true },
    );
    const state: Record<string, unknown> = {};
    const tools = new Tools({ context: new ToolContext().provide(AGENT_STATE, state), logger: { warn: jest.fn(), error: jest.fn() } }).register(counter);
    await tools.execute('count', {});
    expect((await tools.execute('count', {})).result).toBe(2);
    expect(state.count).toBe(2);
    expect((await tools.execute('count', {}, { context: new ToolContext() })).error).toMatch(/cannot run right now/);
  });

  it('marks @Action and tools.action tools that inject AGENT_STATE as state-injected', async () => {
    class Planner {
      @Action('List tasks.')
      list(@Inject(AGENT_STATE) state: Record<string, unknown>): unknown {
        return state.tasks;
      }
    }
    const tools = new Tools({ context: new ToolContext().provide(AGENT_STATE, { tasks: [1] }) }).register(new Planner());
    tools.action({ name: 'peek', description: 'd', inject: { state: AGENT_STATE } }, (_p, { state }) => state.tasks);
    tools.action({ name: 'other', description: 'd' }, () => 1);
    expect([tools.get('list')!.isStateInjected, tools.get('peek')!.isStateInjected, tools.get('other')!.isStateInjected]).toEqual([true, true, false]);
    expect((await tools.execute('peek', {})).result).toEqual([1]);
  });

  it('injects the agent state into a ToolBase call', async () => {
    class Tasks extends ToolBase {
      constructor() {
        super({ name: 'TaskList', description: 'd', inputSchema: Type.Object({}), isStateInjected: true, isReadOnly: true, group: 'plan' });
      }
      checkPermissions(): PermissionDecision {
        return PermissionDecision.allow('free');
      }
      override call(_input: unknown, { state }: ToolInvocation): unknown {
        return state!.tasks;
      }
    }
    const tools = new Tools({ context: new ToolContext().provide(AGENT_STATE, { tasks: ['a'] }) }).register(new Tasks());
    expect((await tools.execute('TaskList', {})).result).toEqual(['a']);
  });
});

@ToolGroup('browser')
class Browser {
  @Action('Open a page.', { params: Type.Object({ url: Type.String() }) })
  open({ url }: { url: string }): string {
    return `opened ${url}`;
  }
}

class Notes {
  @Action('Take a note.')
  note(): string {
    return 'noted';
  }
}

describe('tool groups', () => {
  const names = (tools: Tools) => tools.getSchema(ToolSchemaFormat.ANTHROPIC).map((t) => t.name);

  it('keeps class-derived groups active: registering a class never hides its tools', async () => {
    const tools = new Tools().register(new Browser(), new Notes());
    expect(names(tools)).toEqual(['open', 'note']);
    expect(tools.listGroups()).toEqual([]);
    expect(tools.get(RESET_TOOLS)).toBeUndefined();
    expect(tools.setGroupsActive({ browser: false }).getAvailable().map((t) => t.name)).toEqual(['open', 'note']);
  });

  it('hides a switchable group until reset_tools turns it on, and tells the model to activate it', async () => {
    const tools = new Tools().register(new Browser(), new Notes()).createGroup('browser', 'Web browsing tools');
    tools.createGroup('db', 'Database tools', { active: true });
    expect(names(tools)).toEqual(['note', RESET_TOOLS]);
    expect(tools.getAvailable().map((t) => t.name)).toEqual(['note', RESET_TOOLS]);
    const schema = tools.getSchema(ToolSchemaFormat.ANTHROPIC).find((t) => t.name === RESET_TOOLS)!;
    expect(schema.input_schema.required).toEqual(['browser', 'db']);
    expect(schema.description).toMatch(/browser \(Web browsing tools\)/);
    const refused = await tools.execute('open', { url: 'https://x' });
    expect(refused.error).toBe(`Tool 'open' belongs to the tool group 'browser', which is not active. Activate it first: call ${RESET_TOOLS} with "browser": true (and the state you want for the other groups), then call 'open' again.`);

    const switched = await tools.execute(RESET_TOOLS, { browser: true, db: false });
    expect(switched.result).toBe('Active tool groups: basic (always), browser.\n- browser: open\nInactive: db.');
    expect(tools.listGroups()).toEqual([
      { name: 'browser', description: 'Web browsing tools', active: true },
      { name: 'db', description: 'Database tools', active: false },
    ]);
    expect(names(tools)).toEqual(['open', 'note', RESET_TOOLS]);
    expect((await tools.execute('open', { url: 'https://x' })).result).toBe('opened https://x');
    // The final state, not a toggle: repeating the call changes nothing.
    await tools.execute(RESET_TOOLS, { browser: true, db: false });
    expect(tools.listGroups().map((g) => g.active)).toEqual([true, false]);
    expect((await tools.execute(RESET_TOOLS, { browser: true })).error).toMatch(/db/);
    const all = await tools.execute(RESET_TOOLS, { browser: true, db: true });
    expect(all.result).toMatch(/No group is inactive\.$/);
    expect(all.result).toMatch(/- db: \(no tools\)/);
    expect((await tools.execute(RESET_TOOLS, { browser: false, db: false })).result).toBe('Active tool groups: basic (always).\nInactive: browser, db.');
  });

  it('makes reset_tools always allowed and read-only for the engine', async () => {
    const tools = new Tools().createGroup('browser', 'Web');
    const meta = tools.get(RESET_TOOLS)!;
    expect((await new PermissionEngine({ mode: 'explore' as never }).check(meta, { browser: true })).behavior).toBe(PermissionBehavior.ALLOW);
    expect((await new PermissionEngine().check(meta, { browser: true })).behavior).toBe(PermissionBehavior.ALLOW);
    expect(tools.setGroupsActive({ browser: true, unknown: true }).listGroups()[0]!.active).toBe(true);
  });

  it('refuses bad groups', () => {
    const tools = new Tools().createGroup('browser', 'Web');
    expect(() => tools.createGroup('basic', 'x')).toThrow(/always active/);
    expect(() => tools.createGroup('browser', 'again')).toThrow(/already exists/);
    expect(() => tools.createGroup('bad name', 'x')).toThrow(/letters/);
    expect(() => tools.createGroup('empty', ' ')).toThrow(/description/);
    const own = new Tools().register(new FunctionTool(() => 1, { name: RESET_TOOLS, description: 'mine' }));
    expect(() => own.createGroup('browser', 'Web')).toThrow(/already registered/);
  });
});
