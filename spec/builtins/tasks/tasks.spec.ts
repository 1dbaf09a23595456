import {
  AGENT_STATE,
  ToolContext,
  Tools,
  runToolCalls,
  type AgentState,
} from '../../../lib';
import { PermissionEngine, PermissionMode } from '../../../lib/permissions';
import { TASKS_STATE_KEY, TaskStore, taskTools } from '../../../lib/builtins';

function setup(state: AgentState = {}) {
  const tools = new Tools({ context: new ToolContext().provide(AGENT_STATE, state) }).register(...taskTools());
  const run = async (name: string, args: Record<string, unknown>) => tools.execute(name, args);
  const text = async (name: string, args: Record<string, unknown>) => {
    const result = await run(name, args);
    if (!result.ok) throw new Error(result.error);
    return result.result as string;
  };
  return { tools, run, text, state };
}

describe('task tools', () => {
  it('creates tasks with sequential ids and lists them', async () => {
    const { text } = setup();
    expect(await text('TaskList', {})).toBe('No tasks.');
    expect(await text('TaskCreate', { subject: 'Write tests', description: 'Cover the parser.' })).toBe('Task #1 created: Write tests');
    expect(await text('TaskCreate', { subject: 'Ship', description: 'Release it.', metadata: [{ key: 'priority', value: 2 }] })).toBe('Task #2 created: Ship');
    expect(await text('TaskList', {})).toBe('#1 [pending] Write tests\n#2 [pending] Ship');
  });

  it('keeps block links both ways and shows only open blockers in the list', async () => {
    const { text } = setup();
    await text('TaskCreate', { subject: 'A', description: 'a' });
    await text('TaskCreate', { subject: 'B', description: 'b' });
    await text('TaskCreate', { subject: 'C', description: 'c' });
    await text('TaskUpdate', { taskId: '1', addBlocks: ['2', '2'] });
    await text('TaskUpdate', { taskId: '3', addBlockedBy: ['2'] });
    expect(await text('TaskGet', { taskId: '2' })).toBe('Task #2: B\nStatus: pending\nOwner: (none)\nBlocks: #3\nBlocked by: #1\n\nb');
    expect(await text('TaskList', {})).toBe('#1 [pending] A\n#2 [pending] B [blocked by #1]\n#3 [pending] C [blocked by #2]');
    await text('TaskUpdate', { taskId: '1', status: 'completed', owner: 'agent-1' });
    expect(await text('TaskList', {})).toBe('#1 [completed] A (owner: agent-1)\n#2 [pending] B\n#3 [pending] C [blocked by #2]');
  });

  it('deleting a task strips it from every link', async () => {
    const { text, run, state } = setup();
    for (const s of ['A', 'B', 'C']) await text('TaskCreate', { subject: s, description: s });
    await text('TaskUpdate', { taskId: '2', addBlockedBy: ['1'], addBlocks: ['3'] });
    expect(await text('TaskUpdate', { taskId: '2', status: 'deleted' })).toBe('Task #2 deleted.');
    const store = TaskStore.of(state);
    expect(store.list().map((t) => [t.id, t.blocks, t.blockedBy])).toEqual([['1', [], []], ['3', [], []]]);
    expect((await run('TaskGet', { taskId: '2' })).error).toBe('Task #2 does not exist. Call TaskList to see the tasks.');
    expect((await run('TaskUpdate', { taskId: '2', status: 'deleted' })).ok).toBe(false);
    // Ids are never reused.
    expect(await text('TaskCreate', { subject: 'D', description: 'd' })).toBe('Task #4 created: D');
  });

  it('updates fields and metadata (null removes a key); refuses unknown tasks and self links', async () => {
    const { text, run } = setup();
    await text('TaskCreate', { subject: 'A', description: 'a', metadata: [{ key: 'keep', value: 'x' }, { key: 'drop', value: true }] });
    const out = await text('TaskUpdate', { taskId: '1', subject: 'A2', description: 'a2', status: 'in_progress', metadata: [{ key: 'drop', value: null }, { key: 'added', value: 1 }] });
    expect(out).toBe('Task #1 updated.\nTask #1: A2\nStatus: in_progress\nOwner: (none)\nBlocks: (none)\nBlocked by: (none)\nMetadata: {"keep":"x","added":1}\n\na2');
    expect((await run('TaskUpdate', { taskId: '9', status: 'completed' })).error).toContain('Task #9 does not exist');
    expect((await run('TaskUpdate', { taskId: '1', addBlocks: ['1'] })).error).toBe('Task #1 cannot block itself.');
    expect((await run('TaskUpdate', { taskId: '1', addBlockedBy: ['7'] })).error).toContain('Task #7 does not exist');
    expect((await run('TaskUpdate', { taskId: '1', status: 'done' })).ok).toBe(false);
    expect((await run('TaskCreate', { subject: '', description: 'x' })).ok).toBe(false);
  });

  it('keeps one list per agent state', async () => {
    const a = setup();
    const b = setup();
    await a.text('TaskCreate', { subject: 'A', description: 'a' });
    expect(await b.text('TaskList', {})).toBe('No tasks.');
    expect(a.state[TASKS_STATE_KEY]).toBeInstanceOf(TaskStore);
    a.state[TASKS_STATE_KEY] = 'garbage';
    expect(await a.text('TaskList', {})).toBe('No tasks.');
  });

  it('is always allowed, in every mode, and runs side by side without losing a change', async () => {
    const { tools, state } = setup();
    for (const mode of Object.values(PermissionMode)) {
      const engine = new PermissionEngine({ mode, settings: { deny: ['Bash'] } });
      for (const tool of taskTools()) expect((await engine.check(tool, { subject: 's', description: 'd', taskId: '1' })).behavior).toBe('allow');
    }
    const engine = new PermissionEngine({ mode: PermissionMode.DEFAULT });
    const calls = Array.from({ length: 50 }, (_, i) => ({ id: `c${i}`, name: 'TaskCreate', args: { subject: `T${i}`, description: 'x' } }));
    const links = Array.from({ length: 49 }, (_, i) => ({ id: `l${i}`, name: 'TaskUpdate', args: { taskId: String(i + 2), addBlockedBy: ['1'] } }));
    const first = await runToolCalls(tools, calls, { engine });
    expect(first.ran.every((r) => r.result.ok)).toBe(true);
    const second = await runToolCalls(tools, links, { engine });
    expect(second.ran.every((r) => r.result.ok)).toBe(true);
    const store = TaskStore.of(state);
    expect(new Set(store.list().map((t) => t.id)).size).toBe(50);
    expect(store.get('1')!.blocks).toHaveLength(49);
    expect(store.list().slice(1).every((t) => t.blockedBy.length === 1 && t.blockedBy[0] === '1')).toBe(true);
    expect(taskTools().every((t) => t.isConcurrencySafe && t.isStateInjected && t.isReadOnly)).toBe(true);
  });

  it('fails with the missing-dependency message when the host provides no agent state', async () => {
    const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() } }).register(...taskTools());
    const result = await tools.execute('TaskList', {});
    expect(result.ok).toBe(false);
    expect(result.error).toContain('a service it needs is not configured');
  });
});
