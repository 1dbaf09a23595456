import { BatchGate, BatchGates } from '../../lib/pipeline/batch-gate';

/** A call that records how many calls run while it runs, and finishes when told. */
function recorder() {
  let running = 0;
  let most = 0;
  const log: string[] = [];
  const pending = new Map<string, () => void>();
  const call = (name: string) => async () => {
    running++;
    most = Math.max(most, running);
    log.push(`start ${name}`);
    await new Promise<void>((resolve) => pending.set(name, resolve));
    log.push(`end ${name}`);
    running--;
    return name;
  };
  const finish = async (name: string) => {
    for (let i = 0; i < 20 && !pending.has(name); i++) await new Promise((resolve) => setImmediate(resolve));
    pending.get(name)!();
    pending.delete(name);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { call, finish, log, most: () => most, started: () => [...pending.keys()] };
}

const ticks = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('BatchGate: the batch rule for calls handed over one at a time', () => {
  it('runs at most maxConcurrency safe calls at once under 100 concurrent calls, counted inside the calls, in arrival order', async () => {
    const gate = new BatchGate(4);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const calls = Array.from({ length: 100 }, (_, i) =>
      gate.run(false, async () => {
        running++;
        most = Math.max(most, running);
        order.push(i);
        await new Promise((resolve) => setImmediate(resolve));
        running--;
        return i;
      }),
    );
    expect(await Promise.all(calls)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(most).toBe(4);
    expect(order).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('runs an unsafe call alone: it waits for the running calls, and the calls after it wait for it', async () => {
    const gate = new BatchGate(undefined);
    const r = recorder();
    const all = [gate.run(false, r.call('a')), gate.run(false, r.call('b')), gate.run(true, r.call('write')), gate.run(false, r.call('c'))];
    await ticks();
    expect(r.started().sort()).toEqual(['a', 'b']);
    await r.finish('a');
    await r.finish('b');
    await ticks();
    expect(r.started()).toEqual(['write']);
    await r.finish('write');
    await ticks();
    expect(r.started()).toEqual(['c']);
    await r.finish('c');
    expect(await Promise.all(all)).toEqual(['a', 'b', 'write', 'c']);
    expect(r.log).toEqual(['start a', 'start b', 'end a', 'end b', 'start write', 'end write', 'start c', 'end c']);
  });

  it('lets a call whose signal aborts while it waits go at once (leaving the queue), and one aborted before it came too', async () => {
    const gate = new BatchGate(1);
    const r = recorder();
    const first = gate.run(true, r.call('write'));
    const controller = new AbortController();
    const queued = gate.run(false, async () => 'cancelled at once', controller.signal);
    const behind = gate.run(false, r.call('later'));
    await ticks();
    controller.abort();
    expect(await queued).toBe('cancelled at once');
    expect(await gate.run(false, async () => 'pre-aborted', AbortSignal.abort())).toBe('pre-aborted');
    expect(r.started()).toEqual(['write']);
    await r.finish('write');
    await r.finish('later');
    expect(await Promise.all([first, behind])).toEqual(['write', 'later']);
    expect(r.most()).toBe(1);
  });

  it('releases once however often the release is called, and after a call that throws', async () => {
    const gate = new BatchGate(1);
    const release = await gate.acquire(true);
    release();
    release();
    await expect(gate.run(true, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const r = recorder();
    const a = gate.run(false, r.call('a'));
    const b = gate.run(false, r.call('b'));
    await ticks();
    expect(r.started()).toEqual(['a']); // one at a time: the double release did not free a second slot
    await r.finish('a');
    await r.finish('b');
    await Promise.all([a, b]);
  });
});

describe('BatchGates: one gate per batch key', () => {
  it('never makes calls of separate keys wait for each other, nor calls without a key', async () => {
    const gates = new BatchGates(undefined);
    const r = recorder();
    const one = {};
    const two = {};
    expect(gates.of(one)).toBe(gates.of(one));
    const calls = [gates.of(one).run(true, r.call('w1')), gates.of(two).run(true, r.call('w2')), gates.of(undefined).run(true, r.call('w3')), gates.of(undefined).run(true, r.call('w4'))];
    await ticks();
    expect(r.started().sort()).toEqual(['w1', 'w2', 'w3', 'w4']);
    for (const name of ['w1', 'w2', 'w3', 'w4']) await r.finish(name);
    await Promise.all(calls);
  });
});
