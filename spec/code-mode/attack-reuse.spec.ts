import { CodeMode, DEFAULT_LIMITS } from '../../lib/code-mode';
import { poolFor, type Interpreter, type InterpreterPool } from '../../lib/code-mode/interpreter-pool';
import { registry } from './support';

jest.setTimeout(120_000);

const MIB = 1024 * 1024;
const QUICKJS = require.resolve('quickjs-emscripten');

/** Memory limits no other spec uses, so each CodeMode made with one has a pool of its own. */
let nextMemory = 140;
const used: InterpreterPool[] = [];
function ownLimits(extra: Record<string, number> = {}): Record<string, number> {
  const limits = { memoryBytes: (nextMemory += 1) * MIB, ...extra };
  used.push(poolFor(QUICKJS, { ...DEFAULT_LIMITS, ...limits }));
  return limits;
}
afterAll(() => Promise.all(used.map((pool) => pool.drain())));

/** The worker thread id of each run taken from `pool`, in order. */
function threadsOf(pool: InterpreterPool): number[] {
  const take = pool.take.bind(pool);
  const threads: number[] = [];
  jest.spyOn(pool, 'take').mockImplementation(async (size: number): Promise<Interpreter> => {
    const interpreter = await take(size);
    threads.push(interpreter.worker.threadId);
    return interpreter;
  });
  return threads;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `add` plus `slow` (answers `{ n }` after `ms` milliseconds, counted in `calls`) and `echo` (answers its arguments). */
function tools() {
  const made = registry();
  made.tools.action({ name: 'slow', description: 'Answers n late.', params: { type: 'object', properties: { n: { type: 'number' }, ms: { type: 'number' } }, required: ['n', 'ms'] } }, async ({ n, ms }) => {
    made.calls.push(`slow ${n}`);
    await sleep(ms as number);
    return { n };
  });
  made.tools.action({ name: 'echo', description: 'Echoes.', params: { type: 'object' } }, (args) => args);
  return made;
}

/** A CodeMode with one warm interpreter and its own pool, and the threads its runs took. */
async function reused(limits: Record<string, number> = {}) {
  const made = tools();
  const codeMode = new CodeMode(made.tools, { warmInterpreters: 1, limits: ownLimits(limits) });
  const threads = threadsOf(poolFor(QUICKJS, codeMode.limits));
  const run = async (code: string) => {
    await codeMode.warm();
    return codeMode.run(code);
  };
  return { ...made, codeMode, threads, run };
}

const PROBE = [
  'const seen = [];',
  'seen.push(typeof globalThis.leaked, typeof ({}).polluted, typeof [].push, JSON.parse("1"), JSON.stringify({ a: 1 }));',
  'seen.push(String(Promise.prototype.then).includes("native"), String(Error.prototype.toString).includes("native"));',
  'seen.push(typeof Object.prototype.then, typeof Object.prototype.toJSON, Object.isFrozen(tools), Object.keys(tools).join());',
  'seen.push(Object.isFrozen(console), typeof console.log, Array.isArray([]), typeof Symbol.iterator, [1, 2].map((x) => x * 2).join());',
  'seen.push(typeof String.prototype.repeat, Object.getOwnPropertyNames(globalThis).filter((k) => k.startsWith("__")).join());',
  'return JSON.stringify(seen);',
].join('\n');
const CLEAN = JSON.stringify(['undefined', 'undefined', 'function', 1, '{"a":1}', true, true, 'undefined', 'undefined', true, 'add,slow,echo', true, 'function', true, 'symbol', '2,4', 'function', '']);

const PATCHES: ReadonlyArray<readonly [string, string]> = [
  ['globals and JSON', 'globalThis.leaked = 42; Object.prototype.polluted = 1; JSON.parse = () => "patched"; JSON.stringify = () => "s";'],
  ['Array and Promise prototypes', 'Array.prototype.push = null; Array.prototype.map = () => []; Promise.prototype.then = function () { return this; };'],
  ['getters on Object.prototype', 'Object.defineProperty(Object.prototype, "then", { get() { throw new Error("then") }, configurable: true }); Object.defineProperty(Object.prototype, "toJSON", { value: () => "forged", configurable: true });'],
  ['built-ins deleted or frozen', 'delete String.prototype.repeat; delete Symbol.iterator; Object.freeze(Object.prototype); Object.freeze(Array.prototype); Error.prototype.toString = () => "x";'],
  ['the global object made non-extensible', 'globalThis.__log = 1; globalThis.__limit = 2; Object.preventExtensions(globalThis);'],
];

describe('code mode, a reused worker thread: nothing of a run crosses to the next', () => {
  it.each(PATCHES)('a run that patched %s leaves the next run on the same thread a clean realm', async (_what, patch) => {
    const { run, threads } = await reused();
    expect((await run(PROBE)).result).toBe(CLEAN);
    expect((await run(`${patch}\nreturn "patched";`)).result).toBe('patched');
    expect((await run(PROBE)).result).toBe(CLEAN);
    expect(threads).toHaveLength(3);
    expect(new Set(threads).size).toBe(1);
  });

  it.each([
    ['unawaited fast calls', 'tools.add({ a: 1, b: 2 }); tools.add({ a: 3, b: 4 });\nreturn "first";'],
    ['a Promise.all of late calls in flight', 'Promise.all([tools.slow({ n: 1, ms: 80 }), tools.slow({ n: 2, ms: 40 }), tools.slow({ n: 3, ms: 1 })]).then((v) => console.log("late", v));\nreturn "first";'],
    ['a promise that never settles and a pending then', 'new Promise(() => {}).then(() => console.log("never"));\ntools.slow({ n: 9, ms: 30 }).then((v) => console.log("late", v));\nreturn "first";'],
  ])('answers to %s of an ended run never reach the next run (its ids start again at 1)', async (_what, first) => {
    const { run, threads } = await reused();
    expect((await run(first)).result).toBe('first');
    const second = 'const r = await Promise.all([tools.add({ a: 10, b: 0 }), tools.slow({ n: 20, ms: 5 }), tools.add({ a: 30, b: 0 })]);\nreturn JSON.stringify(r);';
    expect((await run(second)).result).toBe('[10,{"n":20},30]');
    // The first run's late answers have come back to the host by now: a third run still gets only its own.
    await sleep(150);
    expect((await run(second)).result).toBe('[10,{"n":20},30]');
    expect(threads).toEqual([threads[0], threads[0], threads[0]]);
  });

  it('a call made in a job after the return is sent like an unawaited call, its answer never seen; past the limit none is sent', async () => {
    const { run, threads, calls } = await reused({ maxToolCalls: 3 });
    const after = 'Promise.resolve().then(() => tools.add({ a: 7, b: 7 })).then(() => console.log("after"));\nreturn "value";';
    expect(await run(after)).toEqual(expect.objectContaining({ ok: true, result: 'value' }));
    expect(calls).toEqual(['add 7 7']);
    const over = 'Promise.resolve().then(() => { for (let i = 0; i < 9; i++) { try { tools.add({ a: i, b: 0 }); } catch (e) {} } });\nreturn "value";';
    expect((await run(over)).error).toBe('The program was stopped: it made more than 3 tool calls.');
    expect(calls).toEqual(['add 7 7']);
    expect((await run('console.log("b");\nreturn "c";')).result).toBe('b\nc');
    expect(threads[1]).toBe(threads[0]);
    expect(threads[2]).not.toBe(threads[0]);
  });

  it('a thread reused after runs that filled their memory serves a normal run', async () => {
    const { run, threads } = await reused({ memoryBytes: 38 * MIB, timeoutMs: 20_000 });
    // Each run holds most of its memory and ends on its own (a caught out-of-memory error included).
    const fill = 'const a = []; try { while (true) a.push("y".repeat(1e6) + a.length); } catch (e) { return "full " + (a.length > 10); }';
    for (let round = 0; round < 4; round++) expect((await run(fill)).result).toBe('full true');
    const half = 'const a = []; for (let i = 0; i < 20; i++) a.push("z".repeat(1e6) + i); return a.length;';
    expect((await run(half)).result).toBe('20');
    expect((await run('return await tools.add({ a: 2, b: 3 });')).result).toBe('5');
    expect(new Set(threads).size).toBe(1);
    expect(threads).toHaveLength(6);
  });
});

describe('code mode: back-to-back runs', () => {
  it('stay on the thread the first one took: the refill a run schedules does not push out the thread a later run hands back', async () => {
    const made = tools();
    const codeMode = new CodeMode(made.tools, { warmInterpreters: 1, limits: ownLimits() });
    const pool = poolFor(QUICKJS, codeMode.limits);
    const threads = threadsOf(pool);
    await codeMode.warm();
    // Each run is started as soon as the last one's result is in: before the refill that run scheduled.
    for (let round = 0; round < 4; round++) expect((await codeMode.run(`return await tools.add({ a: ${round}, b: 1 });`)).result).toBe(String(round + 1));
    await new Promise((resolve) => setImmediate(resolve));
    expect(threads).toEqual([threads[0], threads[0], threads[0], threads[0]]);
    expect(pool.waiting).toBe(1);
  });
});

describe('code mode, a reused worker thread: the limits still hold', () => {
  it.each([
    ['the time limit', { timeoutMs: 500 }, 'while (true) {}', 'The program was stopped: it ran past its time limit of 500 ms.'],
    ['the time limit, with the loop caught', { timeoutMs: 500 }, 'for (;;) { try { while (true) {} } catch (e) {} }', 'The program was stopped: it ran past its time limit of 500 ms.'],
    ['maxToolCalls', { maxToolCalls: 3 }, 'for (let i = 0; i < 10; i++) await tools.add({ a: i, b: 1 });\nreturn "escaped";', 'The program was stopped: it made more than 3 tool calls.'],
    ['maxToolCalls, with the throw caught', { maxToolCalls: 3 }, 'for (let i = 0; i < 10; i++) { try { tools.add({ a: i, b: 1 }); } catch (e) {} }\nreturn "escaped";', 'The program was stopped: it made more than 3 tool calls.'],
    ['maxToolCalls, caught after an await', { maxToolCalls: 3 }, 'await tools.add({ a: 0, b: 0 });\nconst got = [];\nfor (let i = 0; i < 10; i++) { try { got.push(tools.add({ a: i, b: 1 }).catch(() => 0)); } catch (e) {} }\nreturn "escaped " + got.length;', 'The program was stopped: it made more than 3 tool calls.'],
    ['maxToolCalls, calls made from toJSON of arguments', { maxToolCalls: 3 }, 'const args = { a: 1, b: 1, toJSON() { try { tools.add({ a: 1, b: 1 }); } catch (e) {} return { a: 1, b: 1 }; } };\nfor (let i = 0; i < 6; i++) { try { tools.add(args); } catch (e) {} }\nreturn "escaped";', 'The program was stopped: it made more than 3 tool calls.'],
    ['maxToolCalls, a Promise.all over the limit', { maxToolCalls: 3 }, 'try { await Promise.all([1, 2, 3, 4, 5].map((a) => tools.add({ a, b: 0 }))); } catch (e) {}\nreturn "escaped";', 'The program was stopped: it made more than 3 tool calls.'],
    ['the time limit, in the toJSON of a thrown value', { timeoutMs: 500 }, 'throw { toJSON() { while (true) {} } };', 'The program was stopped: it ran past its time limit of 500 ms.'],
    ['the time limit, in a getter of a thrown Error', { timeoutMs: 500 }, 'const e = new Error("m"); Object.defineProperty(e, "message", { get() { while (true) {} } }); throw e;', 'The program was stopped: it ran past its time limit of 500 ms.'],
    ['maxToolCalls, in the toJSON of a thrown value', { maxToolCalls: 3 }, 'throw { toJSON() { for (let i = 0; i < 9; i++) { try { tools.add({ a: i, b: 0 }); } catch (e) {} } return 1; } };', 'The program was stopped: it made more than 3 tool calls.'],
    ['the memory limit', { memoryBytes: 39 * MIB }, 'const a = []; while (true) a.push("x".repeat(1e6) + a.length);', 'The program was stopped: it ran out of memory (limit 40894464 bytes).'],
  ])('%s on a reused thread', async (_what, limits, code, error) => {
    const { run, threads, calls } = await reused(limits);
    expect((await run('return await tools.add({ a: 1, b: 1 });')).result).toBe('2');
    expect((await run('return 3;')).result).toBe('3');
    calls.length = 0;
    const stopped = await run(code);
    expect(stopped.ok).toBe(false);
    expect(stopped.error).toBe(error);
    expect(calls.length).toBeLessThanOrEqual(3);
    expect(threads[1]).toBe(threads[0]);
    expect(threads[2]).toBe(threads[0]);
    // A limit ends the thread: the next run is on another one, and clean.
    expect((await run(PROBE)).result).toBe(CLEAN);
    expect(threads[3]).not.toBe(threads[0]);
  });

  it.each([
    ['the time limit', { timeoutMs: 500 }, 'return { toJSON() { while (true) {} } };', 'The program was stopped: it ran past its time limit of 500 ms.'],
    ['the time limit, the loop caught', { timeoutMs: 500 }, 'return { toJSON() { for (;;) { try { while (true) {} } catch (e) {} } } };', 'The program was stopped: it ran past its time limit of 500 ms.'],
    ['maxToolCalls, the throw caught', { maxToolCalls: 1 }, 'return { toJSON() { for (let i = 0; i < 5; i++) { try { tools.add({ a: i, b: 9 }); } catch (e) {} } return "shown"; } };', 'The program was stopped: it made more than 1 tool calls.'],
  ])('%s holds while the return value is shown (its toJSON), and the thread is not kept', async (_what, limits, code, error) => {
    const { run, calls, threads } = await reused(limits);
    expect((await run('return 1;')).result).toBe('1');
    const outcome = await run(code);
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toBe(error);
    expect(calls).toEqual([]);
    expect((await run(PROBE)).result).toBe(CLEAN);
    expect(threads[1]).toBe(threads[0]);
    expect(threads[2]).not.toBe(threads[0]);
  });

  it('maxOutputChars on a reused thread, output printed after the return value included', async () => {
    const { run, threads } = await reused({ maxOutputChars: 100 });
    expect((await run('return 1;')).result).toBe('1');
    const outcome = await run('for (let i = 0; i < 50; i++) console.log("line " + i);\nPromise.resolve().then(() => console.log("y".repeat(1e5)));\nreturn "x".repeat(1e5);');
    const text = String(outcome.result);
    expect(text.endsWith('\n[output cut at 100 characters]')).toBe(true);
    expect(text.length).toBe(100 + '\n[output cut at 100 characters]'.length);
    expect((await run('console.log("a");\nreturn "b";')).result).toBe('a\nb');
    expect(new Set(threads).size).toBe(1);
  });
});

describe('code mode: maxOutputChars and the text of a thrown error', () => {
  const cut = '\n[error cut at 100 characters]';
  it.each([
    ['an Error with a long message', 'throw new Error("x".repeat(1e6));', `The program failed at line 1: Error: ${'x'.repeat(93)}${cut}`],
    ['a thrown string', 'throw "y".repeat(1e6);', `The program failed: Uncaught "${'y'.repeat(90)}${cut}`],
    ['an Error with a long name', 'const e = new Error("m"); e.name = "n".repeat(1e6); throw e;', `The program failed at line 1: ${'n'.repeat(100)}${cut}`],
    ['a failed call rethrown after printing', 'console.log("p".repeat(50)); await tools.add({ a: "x".repeat(1e5) });', undefined],
  ])('%s is cut at maxOutputChars on a reused thread', async (_what, code, error) => {
    const { run, threads } = await reused({ maxOutputChars: 100 });
    expect((await run('return 1;')).result).toBe('1');
    const failed = await run(code);
    expect(failed.ok).toBe(false);
    if (error !== undefined) expect(failed.error).toBe(error);
    // Whatever the program threw, what the model gets is bounded: the error's 100, what was printed, the notes.
    expect(String(failed.error).length).toBeLessThanOrEqual(100 + cut.length + 'The program failed at line 1: '.length + '\nOutput before it stopped:\n'.length + 100);
    expect((await run('return 2;')).result).toBe('2');
    expect(new Set(threads).size).toBe(1);
  });
});

describe('code mode: parallel runs from one pool', () => {
  it('each of many parallel runs over reused threads gets its own answers', async () => {
    const made = tools();
    const codeMode = new CodeMode(made.tools, { warmInterpreters: 2, limits: ownLimits() });
    const threads = threadsOf(poolFor(QUICKJS, codeMode.limits));
    for (let round = 0; round < 3; round++) {
      await codeMode.warm();
      const runs = [0, 1, 2, 3].map((k) =>
        codeMode.run(`globalThis.mine = ${k};\nconst r = await Promise.all([tools.slow({ n: ${k * 10 + 1}, ms: ${(4 - k) * 7} }), tools.add({ a: ${k}, b: 100 }), tools.slow({ n: ${k * 10 + 2}, ms: ${k * 5} })]);\nreturn JSON.stringify([globalThis.mine, r]);`),
      );
      const results = (await Promise.all(runs)).map((outcome) => outcome.result);
      expect(results).toEqual([0, 1, 2, 3].map((k) => JSON.stringify([k, [{ n: k * 10 + 1 }, k + 100, { n: k * 10 + 2 }]])));
    }
    // Some runs were on threads an earlier run left.
    expect(new Set(threads).size).toBeLessThan(threads.length);
  });
});

describe('code mode: the ToolCallError made at the call site', () => {
  it('each failed call rejects with its own error, named and placed at its own line', async () => {
    const { run } = await reused();
    const code = [
      'const first = tools.add({ a: "x", b: 1 }).catch((e) => e);',
      'const second = tools.add({ a: 1 }).catch((e) => e);',
      'const [a, b] = await Promise.all([first, second]);',
      'a.message = "changed"; a.extra = 1;',
      'return JSON.stringify([a !== b, a.name, b.name, a instanceof Error, b.message.includes("is required"), "extra" in b, /:1:|:2:/.test(a.stack), /:3:/.test(b.stack)]);',
    ].join('\n');
    expect((await run(code)).result).toBe(JSON.stringify([true, 'ToolCallError', 'ToolCallError', true, true, false, true, true]));
  });

  it.each([
    ['Error replaced', 'globalThis.Error = function () { throw new Error("no"); };'],
    ['setters on Error.prototype', 'Object.defineProperty(Error.prototype, "message", { set() { throw 1; }, get() { return "m"; } }); Object.defineProperty(Error.prototype, "name", { set() { throw 2; }, get() { return "n"; } });'],
    ['Object.defineProperty and JSON replaced', 'Object.defineProperty = () => { throw 3; }; JSON.parse = () => { throw 4; }; Object.freeze = () => { throw 5; };'],
    ['Error.prototype frozen', 'Object.freeze(Error.prototype); Object.preventExtensions(Object.prototype);'],
    ['a stack-trace hook that freezes the error', 'Error.prepareStackTrace = (e) => { Object.freeze(e); return "hooked"; }; Error.captureStackTrace = () => {};'],
  ])('with %s, a failed call still rejects with a ToolCallError and deliver does not throw', async (_what, patch) => {
    const { run, threads } = await reused();
    const code = `${patch}\nlet caught;\ntry { await tools.add({ a: "x" }); } catch (e) { caught = e; }\nconst ok = await tools.add({ a: 2, b: 2 });\nreturn [Object.getOwnPropertyDescriptor(caught, "name").value, Object.getOwnPropertyDescriptor(caught, "message").value.startsWith("Invalid arguments"), ok].join(" ");`;
    expect((await run(code)).result).toBe('ToolCallError true 4');
    expect((await run(PROBE)).result).toBe(CLEAN);
    expect(new Set(threads).size).toBe(1);
  });

  it('a thenable Object.prototype changes only what the program sees of its own answers, and deliver goes on', async () => {
    const { run } = await reused();
    const code = 'Object.defineProperty(Object.prototype, "then", { get() { if (this.x === 1) throw new Error("then getter"); }, configurable: true });\nconst got = await Promise.all([tools.echo({ x: 1 }).catch((e) => e.message), tools.add({ a: 1, b: 2 })]);\ndelete Object.prototype.then;\nreturn JSON.stringify(got);';
    expect((await run(code)).result).toBe('["then getter",3]');
  });

  it('an error a program makes itself is not a ToolCallError of a call, and a failed call is not reported as a success', async () => {
    const { run, calls } = await reused();
    const code = 'const forged = new Error("x"); forged.name = "ToolCallError";\nconst results = await Promise.allSettled([tools.add({ a: "bad" }), tools.add({ a: 1, b: 1 })]);\nreturn JSON.stringify(results.map((r) => r.status));';
    expect((await run(code)).result).toBe('["rejected","fulfilled"]');
    expect(calls).toEqual(['add 1 1']);
  });
});
