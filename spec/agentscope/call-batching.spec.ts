import { Type } from '@sinclair/typebox';
import {
  approvalOf,
  FunctionTool,
  runToolCalls,
  ToolBase,
  Tools,
  type BatchCall,
} from '../../lib';
import { PermissionBehavior, PermissionDecision, PermissionEngine } from '../../lib/permissions';

/** A gate the test opens: tools wait on it, so parallelism is observed by who started, not by timing. */
class Gate {
  readonly started: string[] = [];
  readonly finished: string[] = [];
  private readonly waiters = new Map<string, () => void>();

  async enter(id: string): Promise<string> {
    this.started.push(id);
    await new Promise<void>((resolve) => this.waiters.set(id, resolve));
    this.finished.push(id);
    return id;
  }

  /** Resolves once `ids` have all started, then releases them in the given order. */
  async release(...ids: string[]): Promise<void> {
    while (!ids.every((id) => this.waiters.has(id))) await new Promise((r) => setImmediate(r));
    for (const id of ids) {
      this.waiters.get(id)!();
      this.waiters.delete(id);
    }
  }
}

const Id = Type.Object({ id: Type.String() });

function registry(gate: Gate): Tools {
  const read = new FunctionTool(({ id }: { id: string }) => gate.enter(id), { name: 'read', description: 'safe', params: Id, isConcurrencySafe: true, isReadOnly: true });
  const write = new FunctionTool(({ id }: { id: string }) => gate.enter(id), { name: 'write', description: 'unsafe', params: Id, isConcurrencySafe: false, permissions: { checkPermissions: () => PermissionDecision.allow('ok') } });
  const approve = new FunctionTool(({ id }: { id: string }) => gate.enter(id), { name: 'deploy', description: 'asks', params: Id, isConcurrencySafe: true });
  class Human extends ToolBase {
    constructor() {
      super({ name: 'human', description: 'external', inputSchema: Id, isExternalTool: true });
    }
    checkPermissions(): PermissionDecision {
      return PermissionDecision.allow('ok');
    }
  }
  return new Tools().register(read, write, approve, new Human());
}

const call = (id: string, name: string, args: unknown = { id }): BatchCall => ({ id, name, args });

describe('runToolCalls', () => {
  it('runs consecutive concurrency-safe calls together and the others one at a time, in order', async () => {
    const gate = new Gate();
    const tools = registry(gate);
    const engine = new PermissionEngine();
    const outcome = runToolCalls(tools, [call('r1', 'read'), call('r2', 'read'), call('w1', 'write'), call('r3', 'read'), call('r4', 'read')], { engine });
    // r1 and r2 are both running before either is released: a parallel batch.
    await gate.release('r2', 'r1');
    expect(gate.started).toEqual(['r1', 'r2']);
    // w1 starts only after the batch finished, and alone.
    await gate.release('w1');
    expect(gate.started.slice(2, 3)).toEqual(['w1']);
    await gate.release('r4', 'r3');
    const { ran, waiting } = await outcome;
    expect(gate.started).toEqual(['r1', 'r2', 'w1', 'r3', 'r4']);
    expect(gate.finished).toEqual(['r2', 'r1', 'w1', 'r4', 'r3']);
    expect(ran.map((r) => [r.call.id, r.result.result, r.decision?.behavior])).toEqual([
      ['r1', 'r1', 'allow'],
      ['r2', 'r2', 'allow'],
      ['w1', 'w1', 'allow'],
      ['r3', 'r3', 'allow'],
      ['r4', 'r4', 'allow'],
    ]);
    expect(waiting).toEqual([]);
  });

  it('stops before a call that needs approval and returns what waits', async () => {
    const gate = new Gate();
    const tools = registry(gate);
    const outcome = runToolCalls(tools, [call('r1', 'read'), call('d1', 'deploy'), call('r2', 'read')], { engine: new PermissionEngine() });
    await gate.release('r1');
    const { ran, waiting } = await outcome;
    expect(ran.map((r) => r.call.id)).toEqual(['r1']);
    expect(waiting.map((w) => [w.call.id, w.reason])).toEqual([
      ['d1', 'approval'],
      ['r2', 'queued'],
    ]);
    const first = waiting[0]!;
    expect(first.reason === 'approval' && first.decision?.behavior).toBe(PermissionBehavior.ASK);
    expect(gate.started).toEqual(['r1']);

    const approval = first.reason === 'approval' ? first.approval : undefined;
    expect(approval).toEqual({ callId: 'd1', tool: 'deploy', input: expect.any(String) });
    const resumed = runToolCalls(tools, waiting.map((w) => w.call), { engine: new PermissionEngine(), approved: [approval!] });
    await gate.release('d1', 'r2');
    expect((await resumed).ran.map((r) => r.result.result)).toEqual(['d1', 'r2']);
  });

  it('stops at an external call with its request', async () => {
    const gate = new Gate();
    const tools = registry(gate);
    const { ran, waiting } = await runToolCalls(tools, [call('h1', 'human'), call('r1', 'read')]);
    expect(ran).toEqual([]);
    const head = waiting[0]!;
    expect(head.reason).toBe('external');
    expect(head.reason === 'external' && head.request.toJSON()).toEqual({ callId: 'h1', name: 'human', params: { id: 'h1' } });
    expect(waiting[1]!.reason).toBe('queued');
  });

  it('gives denied calls a failed result and goes on, inside a batch too', async () => {
    const gate = new Gate();
    const tools = registry(gate);
    const engine = new PermissionEngine({ settings: { deny: ['write', 'read'] } });
    engine.removeRule({ toolName: 'read', behavior: PermissionBehavior.DENY });
    const outcome = runToolCalls(tools, [call('r1', 'read'), call('w1', 'write'), call('r2', 'read')], { engine });
    await gate.release('r1');
    await gate.release('r2');
    const { ran } = await outcome;
    expect(ran.map((r) => [r.call.id, r.result.ok])).toEqual([
      ['r1', true],
      ['w1', false],
      ['r2', true],
    ]);
    // A rule's denial is worded as a denial (never as the user's refusal), with one full stop per sentence.
    expect(ran[1]!.result.error).toBe(
      "Permission denied for tool 'write': The permission rule write (from settings) denies this call of write. Do not retry it unchanged; take another approach or ask the user.",
    );
    const denyInBatch = new PermissionEngine({ settings: { deny: ['deploy'] } });
    const batch = runToolCalls(tools, [call('r1', 'read'), call('d1', 'deploy'), call('r2', 'read')], { engine: denyInBatch });
    await gate.release('r1', 'r2');
    expect((await batch).ran.map((r) => [r.call.id, r.result.ok])).toEqual([
      ['r1', true],
      ['d1', false],
      ['r2', true],
    ]);
  });

  it('without an engine, waits on needsApproval; unknown tools and bad arguments fail in place', async () => {
    const gate = new Gate();
    const tools = registry(gate);
    tools.action({ name: 'pay', description: 'pays', requiresApproval: true }, () => 'paid');
    const outcome = await runToolCalls(tools, [call('u1', 'nope'), call('b1', 'read', { id: 3 }), call('h1', 'human', {}), call('p1', 'pay', {})]);
    expect(outcome.ran.map((r) => [r.call.id, r.result.ok])).toEqual([
      ['u1', false],
      ['b1', false],
      ['h1', false],
    ]);
    expect(outcome.waiting.map((w) => [w.call.id, w.reason])).toEqual([['p1', 'approval']]);
    expect(outcome.waiting[0]).toEqual({ call: call('p1', 'pay', {}), reason: 'approval', approval: { callId: 'p1', tool: 'pay', input: '{}' } });
  });

  it('lets an approval answer an ask, never a deny', async () => {
    const gate = new Gate();
    const tools = registry(gate);
    const engine = new PermissionEngine({ settings: { deny: ['deploy'] } });
    const { ran } = await runToolCalls(tools, [call('d1', 'deploy')], { engine, approved: [approvalOf(tools.get('deploy')!, call('d1', 'deploy'))] });
    expect([ran[0]!.result.ok, ran[0]!.decision?.behavior]).toEqual([false, PermissionBehavior.DENY]);
    expect(gate.started).toEqual([]);
  });

  it('runs a call with the input a permission check rewrote', async () => {
    const tool = new FunctionTool(({ path }: { path: string }) => path, {
      name: 'touch',
      description: 'd',
      params: Type.Object({ path: Type.String() }),
      permissions: { checkPermissions: ({ path }) => PermissionDecision.allow('normalised', { updatedInput: { path: path.replace(/^\.\//, '') } }) },
    });
    const tools = new Tools().register(tool);
    const { ran } = await runToolCalls(tools, [call('t1', 'touch', { path: './a.txt' })], { engine: new PermissionEngine() });
    expect(ran[0]!.result.result).toBe('a.txt');
  });

  it('hands back an external result that a middleware replaced as a ran call', async () => {
    const tools = new Tools({ middleware: [{ handle: async (c) => c.resultType.fail('blocked by policy') }] }).register(registry(new Gate()).get('human')!);
    const { ran, waiting } = await runToolCalls(tools, [call('h1', 'human')]);
    expect([ran.map((r) => r.result.error), waiting]).toEqual([['blocked by policy'], []]);
  });
});
