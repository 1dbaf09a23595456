import 'reflect-metadata';
import { Action, CoreError, executeToolCalls, TimeoutMiddleware, ToolEffect, Tools } from '../../lib';

/** A tool whose calls block until released, counting the calls inside its body (`peak`: the most at once). */
function gatedTool(options: { maxConcurrency?: number; effects?: ToolEffect[] } = {}, registryOptions: ConstructorParameters<typeof Tools>[0] = {}) {
  const release: Array<() => void> = [];
  const state = { running: 0, peak: 0, started: [] as string[] };
  const tools = new Tools({ logger: { warn: () => undefined, error: () => undefined }, ...registryOptions });
  tools.action(
    { name: 'render', description: 'Render one page.', params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as never, effects: options.effects ?? [], maxConcurrency: options.maxConcurrency },
    async ({ id }: { id: string }) => {
      state.running++;
      state.peak = Math.max(state.peak, state.running);
      state.started.push(id);
      await new Promise<void>((resolve) => release.push(resolve));
      state.running--;
      return id;
    },
  );
  return { tools, state, release };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

const ids = (n: number, prefix = 'c') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('maxConcurrency of a tool', () => {
  it('runs at most N of 100 concurrent calls across separate executions, in arrival order', async () => {
    const { tools, state, release } = gatedTool({ maxConcurrency: 3 });
    const pending = ids(100).map((id) => tools.execute('render', { id }));
    for (let done = 0; done < 100; done++) {
      await settle();
      expect(state.running).toBe(Math.min(3, 100 - done));
      release.shift()!();
    }
    const results = await Promise.all(pending);
    expect(state.peak).toBe(3);
    expect(state.started).toEqual(ids(100));
    expect(results.map((r) => r.result)).toEqual(ids(100));
  });

  it('answers a queued call at once when its signal aborts, and the queue moves on without it', async () => {
    const { tools, state, release } = gatedTool({ maxConcurrency: 1 });
    const first = tools.execute('render', { id: 'a' });
    const controller = new AbortController();
    const queued = tools.execute('render', { id: 'b' }, { signal: controller.signal });
    const third = tools.execute('render', { id: 'c' });
    await settle();
    controller.abort();
    const cancelled = await queued;
    expect(cancelled.ok).toBe(false);
    expect(cancelled.error).toBe("Tool 'render' was cancelled before it started.");
    expect(state.started).toEqual(['a']);
    release.shift()!();
    await settle();
    release.shift()!();
    expect([(await first).result, (await third).result]).toEqual(['a', 'c']);
    expect(state.started).toEqual(['a', 'c']);
  });

  it('counts the wait in the call timeout: a call that waits past it never starts', async () => {
    const { tools, state, release } = gatedTool({ maxConcurrency: 1 });
    // A registry with a timeout sharing the same tool (and so the same limit) with one without.
    const timed = new Tools({ middleware: [new TimeoutMiddleware(100)], logger: { warn: () => undefined, error: () => undefined } }).merge(tools);
    const holding = tools.execute('render', { id: 'holding' });
    await settle();
    const waited = await timed.execute('render', { id: 'late' });
    expect(waited.error).toMatch(/did not finish within 100 ms/);
    release.shift()!();
    expect((await holding).result).toBe('holding');
    await settle();
    expect(state.started).toEqual(['holding']);
  });

  it('refuses a call once 1,000 calls wait, saying the tool is busy', async () => {
    const { tools, state, release } = gatedTool({ maxConcurrency: 1 });
    const pending = ids(1001).map((id) => tools.execute('render', { id }));
    const refused = await tools.execute('render', { id: 'one too many' });
    expect(refused.ok).toBe(false);
    expect(refused.error).toBe("Tool 'render' is busy: 1 calls of it are running and 1000 are waiting, the most it queues. Try again later, or do something else first.");
    for (let i = 0; i < 1001; i++) {
      await settle();
      release.shift()!();
    }
    expect((await Promise.all(pending)).every((r) => r.ok)).toBe(true);
    expect(state.peak).toBe(1);
  });

  it('is an @Action option too, and refuses a limit that is not a positive integer', async () => {
    class Renderer {
      inside = 0;
      peak = 0;
      gates: Array<() => void> = [];
      @Action('Render.', { effects: [], maxConcurrency: 2 })
      async render(): Promise<string> {
        this.inside++;
        this.peak = Math.max(this.peak, this.inside);
        await new Promise<void>((resolve) => this.gates.push(resolve));
        this.inside--;
        return 'ok';
      }
    }
    const renderer = new Renderer();
    const tools = new Tools().register(renderer);
    const pending = ids(5).map(() => tools.execute('render', {}));
    for (let i = 0; i < 5; i++) {
      await settle();
      renderer.gates.shift()!();
    }
    await Promise.all(pending);
    expect(renderer.peak).toBe(2);
    for (const bad of [0, 2.5, -3]) {
      expect(() => new Tools().action({ name: 'x', description: 'X.', maxConcurrency: bad }, () => 1)).toThrow(CoreError);
      expect(() => new Tools().action({ name: 'x', description: 'X.', maxConcurrency: bad }, () => 1)).toThrow(/A tool's maxConcurrency option must be a positive integer/);
    }
  });

  it('within a batch runs an unsafe call alone, but never serialises unsafe calls of separate batches', async () => {
    const { tools, state, release } = gatedTool({ effects: [ToolEffect.WRITES_WORKSPACE] });
    expect(tools.get('render')!.isConcurrencySafe).toBe(false);
    const batch = executeToolCalls(tools, [{ id: '1', name: 'render', args: { id: 'w1' } }, { id: '2', name: 'render', args: { id: 'w2' } }]);
    const otherConversation = executeToolCalls(tools, [{ id: '1', name: 'render', args: { id: 'x1' } }]);
    await settle();
    expect(state.started.sort()).toEqual(['w1', 'x1']);
    release.splice(0).forEach((go) => go());
    await settle();
    expect(state.started).toContain('w2');
    release.splice(0).forEach((go) => go());
    expect((await batch).map((o) => o.result.result)).toEqual(['w1', 'w2']);
    expect((await otherConversation)[0]!.result.result).toBe('x1');
  });
});
