import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { constants } from 'node:os';
import { OutputCapture } from './output-capture';
import type { SandboxResult } from './sandbox';

/** How long a killed command may take to release its pipes before the call returns anyway, in ms. */
export const KILL_GRACE_MS = 2_000;

/** Name of the variable that marks every process of one local run, so escaped descendants can be found. */
export const RUN_TAG_VARIABLE = 'AGENTTOOLKIT_SANDBOX_RUN';

/** What {@link runProcessTree} needs to start and bound one host process. */
export interface ProcessTreeRun {
  /** Program to start (looked up on `PATH` when not absolute). */
  file: string;
  /** Its arguments; never put an environment value here. */
  args: readonly string[];
  /** The complete environment of the process (nothing else is inherited). */
  env: Record<string, string>;
  /** Host working directory, or undefined for the current one. */
  cwd: string | undefined;
  /** Wall-clock limit, in ms. */
  timeoutMs: number;
  /** Budget for stdout + stderr, in bytes. */
  maxOutputBytes: number;
  /** Aborting kills the tree and rejects with the signal's reason. */
  signal: AbortSignal | undefined;
  /**
   * Tag every process of the run with {@link RUN_TAG_VARIABLE} and, when killing, also kill the processes that
   * carry the tag (found through `/proc`), which catches descendants that left the process group (`setsid`). Used
   * when no namespace contains the run (UnsafeLocalSandbox).
   */
  tagProcesses: boolean;
  /** Turns a spawn failure (for example ENOENT for a missing binary) into the error the caller should see. */
  spawnError: (cause: Error) => Error;
}

/**
 * Spawns `file` in a new process group, captures output within the budget, and enforces the timeout and the abort
 * signal by SIGKILLing the whole group (plus tagged escapees). Resolves when the process exited and its pipes closed,
 * or {@link KILL_GRACE_MS} after a kill at the latest.
 *
 * @throws the signal's reason after killing the tree when `signal` aborts; the `spawnError` result when spawning fails.
 */
export function runProcessTree(run: ProcessTreeRun): Promise<SandboxResult> {
  run.signal?.throwIfAborted();
  const started = performance.now();
  const tag = run.tagProcesses ? randomUUID() : undefined;
  const env = tag === undefined ? run.env : { ...run.env, [RUN_TAG_VARIABLE]: tag };
  const child = spawn(run.file, run.args, { cwd: run.cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = new OutputCapture(run.maxOutputBytes);
  child.stdout.on('data', (chunk: Buffer) => output.push('stdout', chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push('stderr', chunk));

  return new Promise<SandboxResult>((resolvePromise, reject) => {
    let timedOut = false;
    let killing: Promise<void> | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    const kill = (): void => {
      killing ??= killTree(child.pid, tag);
      graceTimer ??= setTimeout(() => finish(null), KILL_GRACE_MS);
    };
    const onAbort = (): void => kill();
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, run.timeoutMs);
    run.signal?.addEventListener('abort', onAbort, { once: true });

    let done = false;
    const finish = (exitCode: number | null, error?: Error): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      run.signal?.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      // Wait for the kill sweep to end so no process of this call survives the returned promise.
      void (killing ?? Promise.resolve()).then(() => {
        if (error) return reject(error);
        if (run.signal?.aborted) return reject(run.signal.reason);
        resolvePromise({
          exitCode: timedOut ? null : exitCode,
          stdout: output.text('stdout'),
          stderr: output.text('stderr'),
          timedOut,
          truncated: output.truncated,
          durationMs: performance.now() - started,
        });
      });
    };
    child.once('error', (cause) => finish(null, run.spawnError(cause)));
    child.once('close', (code, signal) => finish(code ?? (signal ? 128 + constants.signals[signal] : null)));
  });
}

/**
 * SIGKILLs the process group led by `pid` and, when `tag` is given, every process whose environment carries it,
 * repeating until a sweep finds none (a forking process can add children between sweeps; 50 sweeps at most).
 */
export async function killTree(pid: number | undefined, tag: string | undefined): Promise<void> {
  if (pid !== undefined) signalQuietly(-pid);
  if (tag === undefined) return;
  for (let sweep = 0; sweep < 50; sweep++) {
    const tagged = await findTagged(tag);
    if (tagged.length === 0) return;
    tagged.forEach(signalQuietly);
  }
}

function signalQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone (ESRCH): nothing to kill.
  }
}

/** Pids of live processes whose environment holds `RUN_TAG_VARIABLE=tag` (Linux `/proc`; empty elsewhere). */
async function findTagged(tag: string): Promise<number[]> {
  const marker = `${RUN_TAG_VARIABLE}=${tag}`;
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const found = await Promise.all(
    entries.filter((name) => /^\d+$/.test(name)).map(async (name) => {
      // Zombies and processes of other users read as empty or fail: neither can be (or needs to be) killed.
      const environ = await readFile(`/proc/${name}/environ`, 'latin1').catch(() => '');
      return environ.split('\0').includes(marker) ? Number(name) : undefined;
    }),
  );
  return found.filter((pid): pid is number => pid !== undefined);
}
