import { Type } from '@sinclair/typebox';
import {
  approvalOf,
  ActionResult,
  ExternalExecutionRequest,
  FunctionTool,
  runToolCalls,
  ToolBase,
  ToolChunk,
  ToolResultState,
  Tools,
  type ChunkHandler,
  type Tool,
  type ToolChunkMiddleware,
} from '../../lib';
import { PermissionDecision, PermissionEngine } from '../../lib/permissions';

const quiet = { warn: () => undefined, error: () => undefined };
const Empty = Type.Object({});

async function drain(stream: AsyncIterable<ToolChunk>): Promise<ToolChunk[]> {
  const out: ToolChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

describe('review: streaming', () => {
  function registry(): Tools {
    const tools = new Tools({ logger: quiet });
    tools.action({ name: 'text', description: 'x', params: Empty }, () => 'hello');
    tools.action({ name: 'json', description: 'x', params: Empty }, () => ({ a: 1 }));
    tools.action({ name: 'nothing', description: 'x', params: Empty }, () => undefined);
    tools.action({ name: 'fails', description: 'x', params: Empty }, () => ActionResult.fail('nope'));
    tools.action({ name: 'throws', description: 'x', params: Empty }, () => {
      throw new Error('boom');
    });
    tools.action({ name: 'streams', description: 'x', params: Empty }, async function* () {
      yield ToolChunk.text('a', { blockId: 'b1' });
      yield ToolChunk.json({ k: 1 });
      yield ToolChunk.text('b', { blockId: 'b1', state: ToolResultState.DENIED });
      yield ToolChunk.text('!', { state: ToolResultState.SUCCESS });
    });
    tools.action({ name: 'half', description: 'x', params: Empty }, async function* () {
      yield 'partial ';
      throw new Error('stream broke');
    });
    return tools;
  }

  it.each(['text', 'json', 'nothing', 'fails', 'throws', 'streams', 'half', 'missing'])('tools.stream(%s).result equals execute', async (name) => {
    const tools = registry();
    const stream = tools.stream(name, {});
    const chunks = await drain(stream);
    expect(chunks.length).toBeGreaterThan(0);
    expect((await stream.result).toJSON()).toEqual((await tools.execute(name, {})).toJSON());
  });

  it('merges same-id blocks and keeps the worst state (DENIED over SUCCESS)', async () => {
    const result = await registry().execute('streams', {});
    expect(result.ok).toBe(false);
    expect(result.error).toBe('ab!');
  });

  it('runs per-tool middleware first-registered outermost, and next yields chunks for a plain tool', async () => {
    const log: string[] = [];
    const layer = (tag: string): ToolChunkMiddleware => ({
      async *onToolCall(_tool: Tool, input: Record<string, unknown>, next: ChunkHandler) {
        log.push(`${tag}>`);
        for await (const chunk of next(input)) {
          log.push(`${tag}:${chunk.content.map((b) => (b.type === 'text' ? b.text : 'data')).join('')}`);
          yield chunk;
        }
        log.push(`<${tag}`);
      },
    });
    const tools = new Tools({ logger: quiet });
    tools.register(new FunctionTool(() => 'plain', { name: 'plain', description: 'x', params: Empty, middlewares: [layer('outer'), layer('inner')] }));
    expect((await tools.execute('plain', {})).result).toBe('plain');
    expect(log).toEqual(['outer>', 'inner>', 'inner:plain', 'outer:plain', '<inner', '<outer']);
  });

  it('cancels mid-stream when the consumer stops, aborting the tool signal', async () => {
    let aborted = false;
    const tools = new Tools({ logger: quiet });
    tools.action({ name: 'endless', description: 'x', params: Empty }, async function* (_p, _deps, { signal }) {
      signal.addEventListener('abort', () => (aborted = true));
      for (let i = 0; ; i++) {
        yield `tick${i} `;
        await new Promise((r) => setImmediate(r));
      }
    });
    const stream = tools.stream('endless', {});
    for await (const chunk of stream) {
      expect(chunk.content[0]).toMatchObject({ text: 'tick0 ' });
      break;
    }
    const result = await stream.result;
    expect(aborted).toBe(true);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/cancelled/);
  });

  it('returns on abort even when the iterator never yields again or returns', async () => {
    const controller = new AbortController();
    const tools = new Tools({ logger: quiet });
    tools.register(
      new FunctionTool(
        async function* () {
          yield 'first';
          controller.abort();
          await new Promise(() => undefined);
        },
        { name: 'stuck', description: 'x', params: Empty, middlewares: [{ onToolCall: (_t, input, next) => next(input) }] },
      ),
    );
    const result = await tools.execute('stuck', {}, { signal: controller.signal });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/cancelled.*first/);
  });
});

const Id = Type.Object({ id: Type.String() });
class Human extends ToolBase<typeof Id> {
  constructor() {
    super({ name: 'human', description: 'external', inputSchema: Id, isExternalTool: true });
  }
  checkPermissions(): PermissionDecision {
    return PermissionDecision.allow('ok');
  }
}

describe('review: external execution', () => {
  it('round-trips, and an outcome given as a promise is awaited like a tool body', async () => {
    const tools = new Tools({ logger: quiet }).register(new Human());
    const pending = await tools.execute('human', { id: 'x' }, { callId: 'c1' });
    const request = pending.result as ExternalExecutionRequest;
    expect(request.callId).toBe('c1');
    expect((await tools.completeExternal(request, Promise.resolve('done'))).toJSON()).toEqual({ ok: true, result: 'done' });
    const failed = await tools.completeExternal(request, Promise.reject(new Error('host crashed')));
    expect(failed.ok).toBe(false);
    expect(failed.error).toMatch(/host crashed/);
  });

  it('turns an outcome stream that throws into a failed result, not a rejection', async () => {
    const tools = new Tools({ logger: quiet }).register(new Human());
    const request = (await tools.execute('human', { id: 'x' })).result as ExternalExecutionRequest;
    async function* broken() {
      yield ToolChunk.text('half');
      throw new Error('connection lost');
    }
    const result = await tools.completeExternal(request, broken());
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/connection lost/);
  });

  it('refuses a request for a name it did not issue', async () => {
    const tools = new Tools({ logger: quiet }).register(new Human());
    await expect(tools.completeExternal(new ExternalExecutionRequest('bad', 'nobody', {}), 'x')).rejects.toMatchObject({ code: 'NOT_EXTERNAL' });
  });
});

describe('review: groups', () => {
  function grouped(): Tools {
    const tools = new Tools({ logger: quiet });
    tools.action({ name: 'deploy', description: 'x', params: Empty, group: 'ops' }, () => 'deployed');
    tools.action({ name: 'query', description: 'x', params: Empty, group: 'db' }, () => 'rows');
    tools.action({ name: 'echo', description: 'x', params: Empty }, () => 'echo');
    return tools.createGroup('ops', 'Operations').createGroup('db', 'Database', { active: true });
  }

  it('fails inactive-group calls with the activation message and lists only active groups', async () => {
    const tools = grouped();
    const names = () => tools.getAvailable().map((t) => t.name).sort();
    expect(names()).toEqual(['echo', 'query', 'reset_tools']);
    expect((await tools.execute('deploy', {})).error).toMatch(/reset_tools with "ops": true/);
    expect((await tools.stream('deploy', {}).result).error).toMatch(/not active/);
    await tools.execute('reset_tools', { ops: true, db: false });
    expect(names()).toEqual(['deploy', 'echo', 'reset_tools']);
    expect((await tools.execute('query', {})).ok).toBe(false);
    await tools.execute('reset_tools', { ops: true, db: false });
    expect(tools.listGroups().map((g) => [g.name, g.active])).toEqual([['ops', true], ['db', false]]);
    expect((await tools.execute('reset_tools', { ops: false })).ok).toBe(false);
  });

  it('refuses a group named __proto__, which reset_tools could never switch on', () => {
    expect(() => new Tools().createGroup('__proto__', 'Odd name')).toThrow(/reset_tools argument/);
  });

  it.each(['constructor', 'toString', 'hasOwnProperty'])('a group named %s can be switched on by the model', async (group) => {
    const tools = new Tools({ logger: quiet });
    tools.action({ name: 'tool', description: 'x', params: Empty, group }, () => 'ran');
    tools.createGroup(group, 'Odd name');
    const result = await tools.execute('reset_tools', JSON.parse(`{"${group}": true}`));
    expect(result.ok).toBe(true);
    expect((await tools.execute('tool', {})).result).toBe('ran');
  });
});

describe('review: call batching', () => {
  it('stops before an external call even inside a run of safe calls, and runs safe calls together', async () => {
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const safe = new FunctionTool(async ({ id }: { id: string }) => {
      started.push(id);
      if (started.length === 2) release();
      await gate;
      return id;
    }, { name: 'safe', description: 'x', params: Id, isConcurrencySafe: true, isReadOnly: true });
    const tools = new Tools({ logger: quiet }).register(safe, new Human());
    const engine = new PermissionEngine();
    const calls = [
      { id: 'a', name: 'safe', args: { id: 'a' } },
      { id: 'b', name: 'safe', args: { id: 'b' } },
      { id: 'h', name: 'human', args: { id: 'h' } },
      { id: 'c', name: 'safe', args: { id: 'c' } },
    ];
    const outcome = await runToolCalls(tools, calls, { engine });
    expect(outcome.ran.map((r) => [r.call.id, r.result.result])).toEqual([['a', 'a'], ['b', 'b']]);
    expect(outcome.waiting.map((w) => [w.call.id, w.reason])).toEqual([['h', 'external'], ['c', 'queued']]);
    expect(started).toEqual(['a', 'b']);
  });
});

describe('review: call batching without an engine still honours the tool verdict', () => {
  class Guarded extends ToolBase<typeof Id> {
    ran: string[] = [];
    constructor() {
      super({ name: 'guarded', description: 'x', inputSchema: Id });
    }
    checkPermissions({ id }: { id: string }): PermissionDecision {
      if (id.includes('.ssh')) return PermissionDecision.deny('never touches keys');
      if (id === 'throw') throw new Error('check broke');
      return PermissionDecision.allow('fine');
    }
    override call({ id }: { id: string }): string {
      this.ran.push(id);
      return id;
    }
  }

  it('denies what the tool denies (even when approved), and waits on a FunctionTool, which asks by default', async () => {
    const guarded = new Guarded();
    const fn = new FunctionTool(({ id }: { id: string }) => `fn ${id}`, { name: 'fn', description: 'x', params: Id });
    const tools = new Tools({ logger: quiet }).register(guarded, fn);
    const calls = [
      { id: '1', name: 'guarded', args: { id: 'a' } },
      { id: '2', name: 'guarded', args: { id: '~/.ssh/id_rsa' } },
      { id: '3', name: 'guarded', args: { id: 'throw' } },
      { id: '4', name: 'fn', args: { id: 'b' } },
    ];
    const first = await runToolCalls(tools, calls, { approved: [approvalOf(tools.get('guarded')!, calls[1]!)] });
    expect(first.ran.map((r) => [r.call.id, r.result.ok])).toEqual([['1', true], ['2', false], ['3', false]]);
    expect(guarded.ran).toEqual(['a']);
    expect(first.waiting.map((w) => [w.call.id, w.reason])).toEqual([['4', 'approval']]);
    const head = first.waiting[0]!;
    const second = await runToolCalls(tools, [calls[3]!], { approved: head.reason === 'approval' ? [head.approval] : [] });
    expect(second.ran.map((r) => r.result.result)).toEqual(['fn b']);
  });
});
