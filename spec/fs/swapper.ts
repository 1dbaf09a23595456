/**
 * A second process that changes the file system as fast as it can while a test runs operations against it: the
 * adversary of the race tests. It runs in its own process so that it really runs during an operation (between two
 * system calls of it), not only between operations.
 */
import { spawn } from 'node:child_process';

/** A running swapper; `stop()` kills it and resolves once it has exited (so the test can clean up safely). */
export interface Swapper {
  stop(): Promise<void>;
}

/**
 * Starts a process that runs `round` (JavaScript with `fs` in scope, run with `cwd` as its current directory) in a
 * loop until stopped, ignoring errors of single rounds. Resolves after the first full round, so the file system is
 * already being changed when the caller starts its operations.
 */
export async function startSwapper(cwd: string, round: string): Promise<Swapper> {
  const child = spawn(process.execPath, ['-e', `
    const fs = require('fs');
    process.chdir(${JSON.stringify(cwd)});
    const end = Date.now() + 60000;
    let rounds = 0;
    const step = () => { ${round} };
    for (;;) {
      try { step(); } catch {}
      rounds++;
      if (rounds === 1) process.stdout.write('ready\\n');
      if (Date.now() > end) break;
    }`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  await new Promise<void>((ready, fail) => {
    child.stdout.once('data', () => ready());
    child.once('exit', (code) => fail(new Error(`the swapper exited early (code ${String(code)})`)));
  });
  return {
    stop: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Runs `operation` again and again while the swapper runs, at least `minRounds` times and until `enough()` says the
 * adversarial state was seen often enough, or until `maxMs` passed (long enough for a loaded CI machine, under jest's
 * 30 s test timeout; a race met quickly stops early). Returns how many rounds ran.
 */
export async function raceFor(operation: () => Promise<unknown>, enough: () => boolean, maxMs = 20_000, minRounds = 300): Promise<number> {
  const deadline = Date.now() + maxMs;
  let rounds = 0;
  while (Date.now() < deadline && (rounds < minRounds || !enough())) {
    rounds++;
    await operation();
  }
  return rounds;
}
