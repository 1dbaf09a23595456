import { getEventListeners } from 'node:events';
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

afterAll(() => poolFor(QUICKJS, LIMITS).drain());

describe('runProgram: a worker that exits right after its result', () => {
  it("reports the program's result even when the worker's exit is emitted before the port's message", async () => {
    const pool = poolFor(QUICKJS, LIMITS);
    const take = pool.take.bind(pool);
    let raced = 0;
    let signal = new AbortController().signal;
    // The spec's own 'exit' listener is the worker's first: it sees whether the result was taken in when 'exit' came.
    jest.spyOn(pool, 'take').mockImplementation(async (size: number): Promise<Interpreter> => {
      const interpreter = await take(size);
      const watched = signal;
      interpreter.worker.once('exit', () => {
        // The run removes its abort listener when it settles: one still there means the result was still unread.
        if (getEventListeners(watched, 'abort').length > 0) raced += 1;
      });
      return interpreter;
    });
    const outcomes: ProgramOutcome[] = [];
    for (let round = 0; round < 8; round++) {
      signal = new AbortController().signal;
      outcomes.push(
        await runProgram({
          code: 'const n = await tools.f({});\nreturn n + 1;',
          tools: [['f', 'f']],
          limits: LIMITS,
          quickjs: QUICKJS,
          warm: 1,
          idleMs: 60_000,
          signal,
          call: () => {
            // The answer is posted in this turn; the next turn blocks while the worker ends the program and exits.
            setImmediate(() => busy(300));
            return Promise.resolve({ ok: true, value: '41' });
          },
        }),
      );
    }
    expect(outcomes).toEqual(Array.from({ length: 8 }, () => ({ ok: true, text: '42', cut: false })));
    expect(raced).toBeGreaterThan(0);
  });
});
