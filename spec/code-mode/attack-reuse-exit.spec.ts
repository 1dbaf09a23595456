import { getEventListeners } from 'node:events';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS } from '../../lib/code-mode';
import { poolFor, type Interpreter } from '../../lib/code-mode/interpreter-pool';
import { runProgram, type ProgramOutcome } from '../../lib/code-mode/run-program';

jest.setTimeout(180_000);

const QUICKJS = require.resolve('quickjs-emscripten');
// A memory limit no other spec uses: this spec's pool is its own.
const LIMITS = { ...DEFAULT_LIMITS, memoryBytes: 79 * 1024 * 1024 };

function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // the host's event loop cannot turn
  }
}

// An entry of quickjs-emscripten whose thread serves one run, says it can go on, then dies while it makes the next
// interpreter: a thread that is gone although its last result said `again`.
const dir = mkdtempSync(join(tmpdir(), 'agenttoolkit-reuse-exit-'));
const ENTRY = join(dir, 'entry.js');
symlinkSync(join(QUICKJS, '..', '..', '..'), join(dir, 'node_modules'), 'dir');
writeFileSync(
  ENTRY,
  `const real = require(${JSON.stringify(QUICKJS)});\nlet made = 0;\nmodule.exports = { ...real, newQuickJSWASMModuleFromVariant: (...args) => { made += 1; if (made > 1) process.exit(0); return real.newQuickJSWASMModuleFromVariant(...args); } };\n`,
);

// The same, but the thread lives on: its next interpreter cannot be made (it says so with ready false).
const FAILING = join(dir, 'failing.js');
writeFileSync(
  FAILING,
  `const real = require(${JSON.stringify(QUICKJS)});\nlet made = 0;\nmodule.exports = { ...real, newQuickJSWASMModuleFromVariant: async (...args) => { made += 1; if (made > 1) throw new Error('no second instance'); return real.newQuickJSWASMModuleFromVariant(...args); } };\n`,
);
const FAILING_LIMITS = { ...DEFAULT_LIMITS, memoryBytes: 81 * 1024 * 1024 };

afterAll(async () => {
  await poolFor(ENTRY, LIMITS).drain();
  await poolFor(FAILING, FAILING_LIMITS).drain();
  rmSync(dir, { recursive: true, force: true });
});

describe('runProgram: a thread that dies after a result that said it could go on', () => {
  it('is never handed back to the pool, even when its exit is emitted before the result is read', async () => {
    const pool = poolFor(ENTRY, LIMITS);
    const take = pool.take.bind(pool);
    let raced = 0;
    let signal = new AbortController().signal;
    jest.spyOn(pool, 'take').mockImplementation(async (size: number): Promise<Interpreter> => {
      const interpreter = await take(size);
      await interpreter.ready;
      const watched = signal;
      interpreter.worker.once('exit', () => {
        if (getEventListeners(watched, 'abort').length > 0) raced += 1;
      });
      setImmediate(() => busy(500));
      return interpreter;
    });
    const outcomes: ProgramOutcome[] = [];
    // Until the race has happened (a loaded machine can deliver the result first), at least 6 rounds, at most 40.
    for (let round = 0; round < 40 && (round < 6 || raced === 0); round++) {
      signal = new AbortController().signal;
      outcomes.push(await runProgram({ code: 'return 1', tools: [], limits: LIMITS, quickjs: ENTRY, warm: 1, idleMs: 60_000, signal, call: () => Promise.resolve({ ok: true, value: '1' }) }));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // A dead thread handed to a run would have left it waiting for an interpreter until the start limit (a time stop).
    expect(outcomes).toEqual(Array.from({ length: outcomes.length }, () => ({ ok: true, text: '1', cut: false })));
    expect(raced).toBeGreaterThan(0);
  });
});

describe('the pool: a thread that could not make its next interpreter', () => {
  it('is dropped from the pool, so the next run gets a thread that can run it', async () => {
    const pool = poolFor(FAILING, FAILING_LIMITS);
    const take = pool.take.bind(pool);
    const taken: Interpreter[] = [];
    jest.spyOn(pool, 'take').mockImplementation(async (size: number): Promise<Interpreter> => {
      const interpreter = await take(size);
      taken.push(interpreter);
      return interpreter;
    });
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
