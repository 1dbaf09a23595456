import { getEventListeners } from 'node:events';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResolvedLimits } from '../../lib/code-mode/limits';
import { poolFor, type Interpreter } from '../../lib/code-mode/interpreter-pool';
import { runProgram, type ProgramOutcome } from '../../lib/code-mode/run-program';

export const QUICKJS = require.resolve('quickjs-emscripten');

/**
 * A folder for quickjs-emscripten entries of the specs' own (each a file `name` with `source`): the WebAssembly module
 * still resolves beside them, through a `node_modules` link.
 */
export function entryFolder(prefix: string): { dir: string; entry(name: string, source: string): string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  symlinkSync(join(QUICKJS, '..', '..', '..'), join(dir, 'node_modules'), 'dir');
  return {
    dir,
    entry(name, source) {
      const path = join(dir, name);
      writeFileSync(path, source);
      return path;
    },
  };
}

/** Keeps the host's thread busy for `ms` milliseconds, so that the worker finishes and exits meanwhile. */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // the host's event loop cannot turn
  }
}

/**
 * Runs `return 1` on the pool of `quickjs` and `limits` with the host blocked for 500 ms right after each run is
 * posted, until a worker's 'exit' came while its run's result was still unread (at least 6 rounds, at most 40: a
 * loaded machine can deliver the result first). `raced` counts those rounds.
 */
export async function racedRuns(quickjs: string, limits: ResolvedLimits, pauseMs = 0): Promise<{ outcomes: ProgramOutcome[]; raced: number }> {
  const pool = poolFor(quickjs, limits);
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
  for (let round = 0; round < 40 && (round < 6 || raced === 0); round++) {
    signal = new AbortController().signal;
    outcomes.push(await runProgram({ code: 'return 1', tools: [], limits, quickjs, warm: 1, idleMs: 60_000, signal, call: () => Promise.resolve({ ok: true, value: '1' }) }));
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return { outcomes, raced };
}
