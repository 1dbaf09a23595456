import { rmSync } from 'node:fs';
import { DEFAULT_LIMITS } from '../../lib/code-mode';
import { poolFor } from '../../lib/code-mode/interpreter-pool';
import { entryFolder, QUICKJS, racedRuns } from './exit-race-support';

jest.setTimeout(120_000);

// A memory limit no other spec uses: this spec's pool is its own.
const LIMITS = { ...DEFAULT_LIMITS, memoryBytes: 77 * 1024 * 1024 };

// An entry of quickjs-emscripten whose module instance cannot be made: the worker reports the failure as the run's
// result and ends by itself (it cannot make another interpreter).
const folder = entryFolder('agenttoolkit-exit-race-');
const ENTRY = folder.entry('entry.js', `module.exports = { ...require(${JSON.stringify(QUICKJS)}), newQuickJSWASMModuleFromVariant: async () => { throw new Error('no instance here'); } };\n`);

afterAll(async () => {
  await poolFor(ENTRY, LIMITS).drain();
  rmSync(folder.dir, { recursive: true, force: true });
});

describe('runProgram: a worker that exits right after its result', () => {
  it("reports the result the worker posted even when the worker's exit is emitted before the port's message", async () => {
    const { outcomes, raced } = await racedRuns(ENTRY, LIMITS);
    expect(outcomes).toEqual(Array.from({ length: outcomes.length }, () => ({ ok: false, text: '', cut: false, error: 'The interpreter failed: no instance here' })));
    expect(raced).toBeGreaterThan(0);
  });
});
