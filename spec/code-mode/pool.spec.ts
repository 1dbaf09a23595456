import { join } from 'node:path';
import { CodeMode, DEFAULT_LIMITS } from '../../lib/code-mode';
import { DEFAULT_IDLE_TIMEOUT_MS } from '../../lib/code-mode/limits';
import { poolFor, type Interpreter, type InterpreterPool } from '../../lib/code-mode/interpreter-pool';
import { runProgram } from '../../lib/code-mode/run-program';
import { registry } from './support';

jest.setTimeout(60_000);

const MIB = 1024 * 1024;
const QUICKJS = require.resolve('quickjs-emscripten');

/** A memory limit no other spec uses, so the pool of `CodeMode`s made with it is this spec's alone. */
let nextMemory = 90;
const used: InterpreterPool[] = [];
function ownLimits(extra: { timeoutMs?: number } = {}): { memoryBytes: number; timeoutMs?: number } {
  const limits = { memoryBytes: (nextMemory += 1) * MIB, ...extra };
  used.push(poolFor(QUICKJS, { ...DEFAULT_LIMITS, ...limits }));
  return limits;
}

/** Resolves once `done()` holds, checking every 20 ms (fails the test after 20 s). */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 20_000) throw new Error('the condition did not hold within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves after the refill a finished run scheduled (the run's result does not wait for it). */
const afterRefill = () => new Promise((resolve) => setImmediate(resolve));

// Waiting workers never hold the process, but each one makes its exit slower.
afterAll(() => Promise.all(used.map((pool) => pool.drain())));

const LEAK = 'globalThis.leaked = 42; Object.prototype.polluted = 1; Array.prototype.push = null; JSON.parse = () => "patched";';
const PROBE = 'return JSON.stringify([typeof globalThis.leaked, typeof ({}).polluted, typeof [].push, JSON.parse("1")]);';
const CLEAN = '["undefined","undefined","function",1]';

/** The worker thread ids of the runs of `pool`, in order, and the messages the host posted to each run. */
function watchRuns(pool: InterpreterPool): { threads: number[]; posted: unknown[][] } {
  const take = pool.take.bind(pool);
  const seen = { threads: [] as number[], posted: [] as unknown[][] };
  jest.spyOn(pool, 'take').mockImplementation(async (size: number): Promise<Interpreter> => {
    const interpreter = await take(size);
    seen.threads.push(interpreter.worker.threadId);
    const posted: unknown[] = [];
    seen.posted.push(posted);
    const { port } = interpreter;
    const original = unwrapped.get(port) ?? port.postMessage.bind(port);
    unwrapped.set(port, original);
    // This run's view of the port: the next run of the thread replaces it.
    port.postMessage = (message: unknown) => {
      posted.push(message);
      original(message);
    };
    return interpreter;
  });
  return seen;
}
const unwrapped = new WeakMap<object, (message: unknown) => void>();

describe('CodeMode: interpreters started ahead of runs', () => {
  it.each([0, 1, 2])('keeps no state between runs with warmInterpreters %i: a global set in one run is absent in the next', async (warmInterpreters) => {
    const { tools } = registry();
    const codeMode = new CodeMode(tools, { warmInterpreters, limits: ownLimits() });
    const runs = watchRuns(poolFor(QUICKJS, codeMode.limits));
    await codeMode.warm();
    expect((await codeMode.run(`${LEAK}\nreturn 1;`)).result).toBe('1');
    await codeMode.warm();
    expect((await codeMode.run(PROBE)).result).toBe(CLEAN);
    // With a pool the second run is on the first one's thread (the thread last used is taken first), with a fresh
    // interpreter there; without one, on a new thread.
    expect(runs.threads[1] === runs.threads[0]).toBe(warmInterpreters > 0);
    expect(runs.threads).toHaveLength(2);
  });

  it("never lets an answer meant for an ended run reach the next run on the same thread (call ids start at 1 in each)", async () => {
    const { tools, calls } = registry();
    const codeMode = new CodeMode(tools, { warmInterpreters: 1, limits: ownLimits() });
    const runs = watchRuns(poolFor(QUICKJS, codeMode.limits));
    await codeMode.warm();
    // The call is made and never awaited: the program has ended when its answer is posted.
    expect((await codeMode.run('tools.add({ a: 1, b: 2 });\nreturn "first";')).result).toBe('first');
    expect(calls).toEqual(['add 1 2']);
    await codeMode.warm();
    expect((await codeMode.run('return await tools.add({ a: 5, b: 5 });')).result).toBe('10');
    expect(runs.threads[1]).toBe(runs.threads[0]);
    // The answer of the first run's call 1 was posted to the thread after that run's program had ended, and stood
    // before the second run's message on the port: the second run's call 1 got its own answer, not that one.
    expect(runs.posted[0]).toEqual([expect.objectContaining({ type: 'run' }), '[1,1,3]']);
    expect(runs.posted[1]).toEqual([expect.objectContaining({ type: 'run' }), '[1,1,10]']);
  });

  it.each([
    ['a limit on calls', 'for (let i = 0; i < 10; i++) await tools.add({ a: i, b: 1 });', /maxToolCalls|tool calls/],
    ['the memory limit', 'const a = []; while (true) a.push(new Array(1e5).fill(1));', /memory/],
    ['a thrown error', 'throw new Error("no")', /Error: no/],
  ])('after a run ended by %s: keeps the thread only when the program ended on its own', async (kind, code, error) => {
    const { tools } = registry();
    const codeMode = new CodeMode(tools, { warmInterpreters: 1, limits: { ...ownLimits(), maxToolCalls: 3 } });
    const runs = watchRuns(poolFor(QUICKJS, codeMode.limits));
    await codeMode.warm();
    const failed = await codeMode.run(code);
    expect(failed.error).toMatch(error);
    await codeMode.warm();
    expect((await codeMode.run(PROBE)).result).toBe(CLEAN);
    expect(runs.threads[1] === runs.threads[0]).toBe(kind === 'a thrown error');
  });

  it('keeps no state between parallel runs taken from one pool', async () => {
    const { tools } = registry();
    const codeMode = new CodeMode(tools, { warmInterpreters: 2, limits: ownLimits() });
    await codeMode.warm();
    const [first, second] = await Promise.all([codeMode.run(`${LEAK}\nawait tools.add({ a: 1, b: 1 });\n${PROBE}`), codeMode.run(`await tools.add({ a: 1, b: 1 });\n${PROBE}`)]);
    expect(first.result).toBe('["number","number","object","patched"]');
    expect(second.result).toBe(CLEAN);
  });

  it.each([
    ['aborted', { timeoutMs: 30_000 }, (controller: AbortController) => setTimeout(() => controller.abort(), 300)],
    ['timed out', { timeoutMs: 300 }, () => undefined],
  ] as const)('never hands the worker of a run that was %s to a later run', async (_how, extra, stop) => {
    const { tools } = registry();
    const codeMode = new CodeMode(tools, { warmInterpreters: 1, limits: ownLimits(extra) });
    await codeMode.warm();
    const controller = new AbortController();
    stop(controller);
    const runs = watchRuns(poolFor(QUICKJS, codeMode.limits));
    const stopped = await codeMode.run(`${LEAK}\nwhile (true) {}`, { signal: controller.signal });
    expect(stopped.ok).toBe(false);
    await codeMode.warm();
    expect((await codeMode.run(PROBE)).result).toBe(CLEAN);
    expect(runs.threads[1]).not.toBe(runs.threads[0]);
  });

  it('with warmInterpreters 0 starts one interpreter per run and keeps none waiting', async () => {
    const { tools } = registry();
    const limits = ownLimits();
    const codeMode = new CodeMode(tools, { warmInterpreters: 0, limits });
    await codeMode.warm();
    expect((await codeMode.run('return await tools.add({ a: 2, b: 3 });')).result).toBe('5');
    expect(poolFor(QUICKJS, codeMode.limits).waiting).toBe(0);
  });

  it('keeps as many waiting as the largest count asked for, refilled after each run', async () => {
    const { tools } = registry();
    const limits = ownLimits();
    const one = new CodeMode(tools, { warmInterpreters: 1, limits });
    const three = new CodeMode(tools, { warmInterpreters: 3, limits });
    const pool = poolFor(QUICKJS, one.limits);
    await one.warm();
    expect(pool.waiting).toBe(1);
    await three.warm();
    expect(pool.waiting).toBe(3);
    expect((await one.run('return 1')).ok).toBe(true);
    await afterRefill();
    expect(pool.waiting).toBe(3);
  });

  it('drain() terminates the waiting interpreters and stops refilling; a later size starts them again', async () => {
    const { tools } = registry();
    const codeMode = new CodeMode(tools, { warmInterpreters: 2, limits: ownLimits() });
    const pool = poolFor(QUICKJS, codeMode.limits);
    await codeMode.warm();
    expect(pool.waiting).toBe(2);
    await pool.drain();
    expect(pool.waiting).toBe(0);
    expect((await codeMode.run('return 1')).ok).toBe(true);
    await afterRefill();
    expect(pool.waiting).toBe(2);
  });

  it('terminates a waiting interpreter after idleTimeoutMs; the next run starts one of its own and the pool fills again', async () => {
    const { tools } = registry();
    // One interpreter: with two, the first one ready can reach its idle time before the second is ready (a busy machine).
    const codeMode = new CodeMode(tools, { warmInterpreters: 1, idleTimeoutMs: 50, limits: ownLimits() });
    const pool = poolFor(QUICKJS, codeMode.limits);
    await codeMode.warm();
    expect(pool.waiting).toBe(1);
    await until(() => pool.waiting === 0);
    expect((await codeMode.run('return await tools.add({ a: 2, b: 3 });')).result).toBe('5');
    await afterRefill();
    expect(pool.waiting).toBe(1);
  });

  it('keeps waiting interpreters for the default idle time of one minute', async () => {
    const { tools } = registry();
    const codeMode = new CodeMode(tools, { warmInterpreters: 1, limits: ownLimits() });
    const pool = poolFor(QUICKJS, codeMode.limits);
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      await codeMode.warm();
      jest.advanceTimersByTime(DEFAULT_IDLE_TIMEOUT_MS - 1);
      expect(pool.waiting).toBe(1);
      jest.advanceTimersByTime(1);
      expect(pool.waiting).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('refuses an idleTimeoutMs that is not a positive integer within a timer range', () => {
    const { tools } = registry();
    for (const bad of [0, -5, 1.5, 2 ** 31, '100' as unknown as number, Number.NaN]) {
      expect(() => new CodeMode(tools, { idleTimeoutMs: bad })).toThrow(/idleTimeoutMs must be a positive integer/);
    }
  });

  it('refuses a warmInterpreters that is not an integer from 0 to 16', () => {
    const { tools } = registry();
    for (const bad of [-1, 1.5, 17, '2' as unknown as number, Number.NaN]) {
      expect(() => new CodeMode(tools, { warmInterpreters: bad })).toThrow(/warmInterpreters must be an integer from 0 to 16/);
    }
  });

  it('drops a waiting interpreter whose thread fails to start, and a run on such an interpreter fails as crashed', async () => {
    // Resolvable beside quickjs-emscripten (so the WebAssembly module compiles) but not loadable in the worker.
    const broken = join(QUICKJS, '..', 'no-such-entry.js');
    const limits = { ...DEFAULT_LIMITS, memoryBytes: (nextMemory += 1) * MIB };
    const pool = poolFor(broken, limits);
    await pool.warm(1, 60_000);
    expect(pool.waiting).toBe(0);
    const outcome = await runProgram({ code: 'return 1', tools: [], limits, quickjs: broken, warm: 1, idleMs: 60_000, call: () => Promise.resolve({ ok: true, value: '1' }) });
    expect(outcome).toEqual(expect.objectContaining({ ok: false, reason: 'crashed' }));
  });

  it('fails a run as crashed when the interpreter cannot be loaded at all, and a CodeMode warm() still resolves', async () => {
    const missing = '/no-such-dir-of-agenttoolkit/quickjs.js';
    const outcome = await runProgram({ code: 'return 1', tools: [], limits: DEFAULT_LIMITS, quickjs: missing, warm: 1, idleMs: 60_000, call: () => Promise.resolve({ ok: true, value: '1' }) });
    expect(outcome).toEqual(expect.objectContaining({ ok: false, reason: 'crashed', error: expect.stringMatching(/could not be loaded/) }));
    const codeMode = new CodeMode(registry().tools);
    (codeMode as unknown as { quickjs: string }).quickjs = missing;
    await expect(codeMode.warm()).resolves.toBeUndefined();
  });
});
