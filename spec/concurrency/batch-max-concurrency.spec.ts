import { CoreError, executeToolCalls, runToolCalls, ToolEffect, Tools, type BatchCall } from '../../lib';

/**
 * A read-only tool whose every call blocks until the test releases it, counting the calls running inside the body:
 * `peak` is the most that were ever inside at once.
 */
function barrierTools() {
  const waiting: Array<() => void> = [];
  const state = { running: 0, peak: 0, started: [] as string[] };
  const tools = new Tools();
  tools.action(
    { name: 'read', description: 'Read one item.', params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as never, effects: [ToolEffect.READS_WORKSPACE] },
    async ({ id }: { id: string }) => {
      state.running++;
      state.peak = Math.max(state.peak, state.running);
      state.started.push(id);
      await new Promise<void>((resolve) => waiting.push(resolve));
      state.running--;
      return id;
    },
  );
  return { tools, state, waiting };
}

/** Lets every pending reaction and I/O callback run: whatever could start by now has started. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Releases blocked calls one at a time (last blocked first, so finishing order differs from call order) until all ran. */
async function drain(waiting: Array<() => void>, total: number, state: { started: string[]; running: number }, limit: number): Promise<void> {
  let released = 0;
  while (released < total) {
    await settle();
    // Never more inside than the limit, and never fewer while calls are still queued: the limit is reached, not just respected.
    expect(state.running).toBe(Math.min(limit, total - released));
    waiting.pop()!();
    released++;
  }
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);

describe('maxConcurrency of a batch', () => {
  it('runToolCalls runs at most N of 100 concurrency-safe calls at once and keeps call order', async () => {
    const { tools, state, waiting } = barrierTools();
    const calls: BatchCall[] = ids(100).map((id) => ({ id, name: 'read', args: { id } }));
    const pending = runToolCalls(tools, calls, { maxConcurrency: 3 });
    await drain(waiting, 100, state, 3);
    const outcome = await pending;
    expect(state.peak).toBe(3);
    expect(state.started).toEqual(ids(100));
    expect(outcome.ran.map((r) => r.result.result)).toEqual(ids(100));
  });

  it('executeToolCalls runs at most N at once, starts them in call order and keeps call order in the results', async () => {
    const { tools, state, waiting } = barrierTools();
    const calls = ids(20).map((id) => ({ id, name: 'read', args: { id } }));
    const pending = executeToolCalls(tools, calls, { maxConcurrency: 4 });
    await drain(waiting, 20, state, 4);
    const outcomes = await pending;
    expect(state.peak).toBe(4);
    expect(state.started).toEqual(ids(20));
    expect(outcomes.map((o) => [o.call.id, o.result.result])).toEqual(ids(20).map((id) => [id, id]));
  });

  it('runs the whole group at once without a limit, and with a limit above the group size', async () => {
    for (const maxConcurrency of [undefined, 50]) {
      const { tools, state, waiting } = barrierTools();
      const pending = executeToolCalls(tools, ids(6).map((id) => ({ id, name: 'read', args: { id } })), { maxConcurrency });
      await settle();
      expect(state.running).toBe(6);
      waiting.forEach((release) => release());
      expect((await pending).map((o) => o.result.result)).toEqual(ids(6));
    }
  });

  it('refuses a limit that is not a positive integer, naming the option', async () => {
    const { tools } = barrierTools();
    for (const bad of [0, -1, 1.5, Number.NaN, '2']) {
      await expect(runToolCalls(tools, [], { maxConcurrency: bad as number })).rejects.toThrow(CoreError);
      await expect(runToolCalls(tools, [], { maxConcurrency: bad as number })).rejects.toThrow(/runToolCalls\(\{ maxConcurrency \}\) must be a positive integer/);
      await expect(executeToolCalls(tools, [], { maxConcurrency: bad as number })).rejects.toThrow(/executeToolCalls\(\{ maxConcurrency \}\) must be a positive integer/);
    }
  });
});
