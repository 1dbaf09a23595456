import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { isCI } from '../../scripts/ci-flag';
import { skippedTitle } from '../support/skip-reason';

/** Pids of host processes whose command line contains `marker`. */
export function processesMatching(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, 'latin1').split('\0').join(' ');
    } catch {
      continue;
    }
    if (cmdline.includes(marker)) pids.push(Number(name));
  }
  return pids;
}

/** A unique `sleep` duration, so the test can find its own sleepers among the host's processes. */
export function uniqueSleep(): string {
  return `${1000 + Math.floor(Math.random() * 8000)}.${process.pid}${Math.floor(Math.random() * 1000)}`;
}

/** A fresh temporary folder, removed by the returned cleanup. */
export function tempDir(prefix = 'agenttoolkit-sandbox-'): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

const SCRIPT = 'scripts/test-engine.sh';

/** Why bwrap cannot be used here, or undefined when it works. */
export function bwrapMissing(): string | undefined {
  const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', '/bin/true'], { stdio: 'ignore' });
  if (probe.status === 0) return undefined;
  return `bubblewrap does not work here (${probe.error?.message ?? `exit ${String(probe.status)}`}); install it with 'apt-get install -y bubblewrap'.`;
}

/** Engine settings read from the environment: the socket/host and the test image built by scripts/test-engine.sh. */
export function dockerEngine(): { host: string; image: string } | undefined {
  const host = process.env.AGENTTOOLKIT_DOCKER_HOST;
  const image = process.env.AGENTTOOLKIT_DOCKER_IMAGE;
  return host && image ? { host, image } : undefined;
}

/**
 * `describe` for tests that need a real engine. With the engine: runs. Without it: in CI (`CI=1` or `true`; `CI=0`,
 * `false` or empty is not CI, see scripts/ci-flag.js) the suite fails, since these tests are required there; locally
 * it is skipped, its title saying how to start the engine (the run summary of `npm test` lists the reason).
 */
export function describeWithEngine(kind: 'docker' | 'bwrap', name: string, body: () => void): void {
  const missing = kind === 'bwrap' ? bwrapMissing() : dockerEngine() ? undefined : `AGENTTOOLKIT_DOCKER_HOST and AGENTTOOLKIT_DOCKER_IMAGE are not set. Start the engine with: eval "$(${SCRIPT} start)"`;
  if (missing === undefined) {
    describe(name, body);
  } else if (isCI()) {
    describe(name, () => {
      it(`needs its ${kind} engine (required in CI)`, () => {
        throw new Error(missing);
      });
    });
  } else {
    describe.skip(skippedTitle(name, missing), body);
  }
}

/**
 * Pids of host processes whose command line ends with `sleep <marker>`: the background processes a test started
 * (busybox runs some applets without exec, so `nohup sleep 5` may keep `nohup` in front).
 */
export function sleepers(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'latin1').endsWith(`sleep\0${marker}\0`)) pids.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** True when `pid` no longer runs (gone, or a zombie waiting to be reaped). */
export function isDead(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return /\) [ZX] /.test(stat);
  } catch {
    return true;
  }
}

/**
 * Polls the host's processes every 20 ms for `sleep <marker>` while `run` is pending, and returns every pid seen
 * with `run`'s outcome, so a test can prove the background process existed and then check that it died.
 * `onFirstSeen` runs once, when the first one appears (to cancel a call at a known point).
 */
export async function watchSleepers<T>(marker: string, run: Promise<T>, onFirstSeen?: () => void): Promise<{ seen: number[]; outcome: PromiseSettledResult<T> }> {
  const seen = new Set<number>();
  const timer = setInterval(() => {
    const first = seen.size === 0;
    sleepers(marker).forEach((pid) => seen.add(pid));
    if (first && seen.size > 0) onFirstSeen?.();
  }, 20);
  const [outcome] = await Promise.allSettled([run]);
  clearInterval(timer);
  return { seen: [...seen], outcome };
}

/**
 * Collects the `MaxListenersExceededWarning`s the process emits until the returned function is called. Node emits
 * warnings on the real `process`, which Jest's sandboxed `process` does not relay: listen on the main context's.
 */
export function collectListenerWarnings(): () => Error[] {
  const realProcess = runInThisContext('process') as NodeJS.Process;
  const warnings: Error[] = [];
  const listener = (warning: Error): void => {
    if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning);
  };
  realProcess.on('warning', listener);
  return () => {
    realProcess.off('warning', listener);
    return warnings;
  };
}
