import { getEventListeners } from 'node:events';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS } from '../../lib/code-mode';
import { poolFor, type Interpreter } from '../../lib/code-mode/interpreter-pool';
import { runProgram, type ProgramOutcome } from '../../lib/code-mode/run-program';

jest.setTimeout(120_000);

const QUICKJS = require.resolve('quickjs-emscripten');
// A memory limit no other spec uses: this spec's pool is its own.
const LIMITS = { ...DEFAULT_LIMITS, memoryBytes: 77 * 1024 * 1024 };

/** Keeps the host's thread busy for `ms` milliseconds, so that the worker finishes and exits meanwhile. */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // the host's event loop cannot turn
  }
}

// An entry of quickjs-emscripten whose module instance cannot be made: the worker reports the failure as the run's
// result and ends by itself (it cannot make another interpreter). The WebAssembly module still resolves beside it.
const dir = mkdtempSync(join(tmpdir(), 'agenttoolkit-exit-race-'));
const ENTRY = join(dir, 'entry.js');
symlinkSync(join(QUICKJS, '..', '..', '..'), join(dir, 'node_modules'), 'dir');
writeFileSync(ENTRY, `module.exports = { ...require(${JSON.stringify(QUICKJS)}), newQuickJSWASMModuleFromVariant: async () => { throw new Error('no instance here'); } };\n`);

afterAll(async () => {
  await poolFor(ENTRY, LIMITS).drain();
  rmSync(dir, { recursive: true, force: true });
});

describe('runProgram: a worker that exits right after its result', () => {
  it("reports the result the worker posted even when the worker's exit is emitted before the port's message", async () => {
    const pool = poolFor(ENTRY, LIMITS);
    const take = pool.take.bind(pool);
    let raced = 0;
    let signal = new AbortController().signal;
    // The spec's own 'exit' listener is the worker's first: it sees whether the result was taken in when 'exit' came.
    jest.spyOn(pool, 'take').mockImplementation(async (size: number): Promise<Interpreter> => {
      const interpreter = await take(size);
      await interpreter.ready;
      const watched = signal;
      interpreter.worker.once('exit', () => {
        // The run removes its abort listener when it settles: one still there means the result was still unread.
        if (getEventListeners(watched, 'abort').length > 0) raced += 1;
      });
      // The run is posted in this turn; the next one blocks while the worker answers it and exits.
      setImmediate(() => busy(500));
      return interpreter;
    });
    const outcomes: ProgramOutcome[] = [];
    // Until the race has happened (a loaded machine can deliver the result first), at least 6 rounds, at most 40.
    for (let round = 0; round < 40 && (round < 6 || raced === 0); round++) {
      signal = new AbortController().signal;
      outcomes.push(await runProgram({ code: 'return 1', tools: [], limits: LIMITS, quickjs: ENTRY, warm: 1, idleMs: 60_000, signal, call: () => Promise.resolve({ ok: true, value: '1' }) }));
    }
    expect(outcomes).toEqual(Array.from({ length: outcomes.length }, () => ({ ok: false, text: '', cut: false, error: 'The interpreter failed: no instance here' })));
    expect(raced).toBeGreaterThan(0);
  });
});
