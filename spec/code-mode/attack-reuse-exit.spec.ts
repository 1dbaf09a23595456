import { rmSync } from 'node:fs';
import { DEFAULT_LIMITS } from '../../lib/code-mode';
import { poolFor, type Interpreter } from '../../lib/code-mode/interpreter-pool';
import { runProgram, type ProgramOutcome } from '../../lib/code-mode/run-program';
import { entryFolder, QUICKJS, racedRuns } from './exit-race-support';

jest.setTimeout(180_000);

// A memory limit no other spec uses: this spec's pool is its own.
const LIMITS = { ...DEFAULT_LIMITS, memoryBytes: 79 * 1024 * 1024 };
const folder = entryFolder('agenttoolkit-reuse-exit-');

// An entry of quickjs-emscripten whose thread serves one run, says it can go on, then dies while it makes the next
// interpreter: a thread that is gone although its last result said `again`.
const ENTRY = folder.entry(
  'entry.js',
  `const real = require(${JSON.stringify(QUICKJS)});\nlet made = 0;\nmodule.exports = { ...real, newQuickJSWASMModuleFromVariant: (...args) => { made += 1; if (made > 1) process.exit(0); return real.newQuickJSWASMModuleFromVariant(...args); } };\n`,
);

// The same, but the thread lives on: its next interpreter cannot be made (it says so with ready false).
const FAILING = folder.entry(
  'failing.js',
  `const real = require(${JSON.stringify(QUICKJS)});\nlet made = 0;\nmodule.exports = { ...real, newQuickJSWASMModuleFromVariant: async (...args) => { made += 1; if (made > 1) throw new Error('no second instance'); return real.newQuickJSWASMModuleFromVariant(...args); } };\n`,
);
const FAILING_LIMITS = { ...DEFAULT_LIMITS, memoryBytes: 81 * 1024 * 1024 };

// Threads that are still making their next interpreter when the next run takes them, then die (`exit`) or cannot make
// it (`throw`): 300 ms after the run, long after the next run has been handed the thread.
const SLOW = (['exit', 'throw'] as const).map((end, index) => ({
  end,
  limits: { ...DEFAULT_LIMITS, memoryBytes: (83 + index) * 1024 * 1024 },
  entry: folder.entry(
    `slow-${end}.js`,
    `const real = require(${JSON.stringify(QUICKJS)});\nlet made = 0;\nmodule.exports = { ...real, newQuickJSWASMModuleFromVariant: async (...args) => { made += 1; if (made > 1) { await new Promise((resolve) => setTimeout(resolve, 300)); ${end === 'exit' ? 'process.exit(0)' : "throw new Error('no second instance')"}; } return real.newQuickJSWASMModuleFromVariant(...args); } };\n`,
  ),
}));

afterAll(async () => {
  await poolFor(ENTRY, LIMITS).drain();
  await poolFor(FAILING, FAILING_LIMITS).drain();
  for (const slow of SLOW) await poolFor(slow.entry, slow.limits).drain();
  rmSync(folder.dir, { recursive: true, force: true });
});

/** Records each interpreter `pool` hands to a run, in order. */
function recordTakes(pool: ReturnType<typeof poolFor>): Interpreter[] {
  const take = pool.take.bind(pool);
  const taken: Interpreter[] = [];
  jest.spyOn(pool, 'take').mockImplementation(async (size: number): Promise<Interpreter> => {
    const interpreter = await take(size);
    taken.push(interpreter);
    return interpreter;
  });
  return taken;
}

describe('runProgram: a thread that dies after a result that said it could go on', () => {
  it('is never handed back to the pool, even when its exit is emitted before the result is read', async () => {
    const { outcomes, raced } = await racedRuns(ENTRY, LIMITS, 50);
    // A dead thread handed to a run would have left it waiting for an interpreter until the start limit (a time stop).
    expect(outcomes).toEqual(Array.from({ length: outcomes.length }, () => ({ ok: true, text: '1', cut: false })));
    expect(raced).toBeGreaterThan(0);
  });
});

describe('the pool: a thread that could not make its next interpreter', () => {
  it('is dropped from the pool, so the next run gets a thread that can run it', async () => {
    const pool = poolFor(FAILING, FAILING_LIMITS);
    const taken = recordTakes(pool);
    await pool.warm(1, 60_000);
    const outcomes: ProgramOutcome[] = [];
    for (let round = 0; round < 3; round++) {
      outcomes.push(await runProgram({ code: `return ${round}`, tools: [], limits: FAILING_LIMITS, quickjs: FAILING, warm: 1, idleMs: 60_000, call: () => Promise.resolve({ ok: true, value: '1' }) }));
      // The thread went back to the pool and has said whether its next interpreter is made.
      await Promise.all(taken.map((interpreter) => interpreter.ready));
      await pool.warm(1, 60_000);
    }
    expect(outcomes).toEqual([0, 1, 2].map((round) => ({ ok: true, text: String(round), cut: false })));
    expect(new Set(taken).size).toBe(3);
  });
});

describe.each(SLOW)('the pool: a waiting thread that is still making its next interpreter, then fails ($end)', ({ entry, limits }) => {
  it('is not handed to the next run until it has made it: the run goes to a new thread and runs', async () => {
    const pool = poolFor(entry, limits);
    const taken = recordTakes(pool);
    const run = (round: number) => runProgram({ code: `return ${round}`, tools: [], limits, quickjs: entry, warm: 1, idleMs: 60_000, call: () => Promise.resolve({ ok: true, value: '1' }) });
    await pool.warm(1, 60_000);
    const first = await run(0);
    // The first run's thread went back to the pool and is making its next interpreter (for 300 ms) when this one starts.
    expect(pool.waiting).toBe(1);
    const second = await run(1);
    expect([first, second]).toEqual([0, 1].map((round) => ({ ok: true, text: String(round), cut: false })));
    expect(taken).toHaveLength(2);
    expect(taken[1]).not.toBe(taken[0]);
  });
});
