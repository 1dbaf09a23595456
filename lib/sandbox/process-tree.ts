import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { SandboxError } from './errors';
import { OutputCapture } from './output-capture';
import type { SandboxOutputChunk, SandboxResult } from './sandbox';

/** How long a killed command may take to release its pipes before the call returns anyway, in ms. */
export const KILL_GRACE_MS = 2_000;

/** Name of the variable that marks every process of one local run, so escaped descendants can be found. */
export const RUN_TAG_VARIABLE = 'AGENTTOOLKIT_SANDBOX_RUN';

/** What {@link runProcessTree} needs to start and bound one host process. */
export interface ProcessTreeRun {
  /** Absolute path of the program to start; never looked up on a `PATH`. */
  file: string;
  /** Its arguments; never put an environment value here. */
  args: readonly string[];
  /** The complete environment of the process (nothing else is inherited). */
  env: Readonly<Record<string, string>>;
  /** Host working directory, or undefined for the current one. */
  cwd: string | undefined;
  /** Wall-clock limit, in ms. */
  timeoutMs: number;
  /** Budget for stdout + stderr, in bytes. */
  maxOutputBytes: number;
  /** Receives the kept output as it arrives (see `SandboxExecuteOptions.onOutput`). */
  onOutput?: ((chunk: SandboxOutputChunk) => void) | undefined;
  /** Aborting kills the tree and rejects with the signal's reason. */
  signal: AbortSignal;
  /** Written to the process's file descriptor 3, which is then closed (bwrap's `--args` channel). */
  fd3Data?: Buffer;
  /**
   * Called with what the process wrote on its file descriptor 4 (bwrap's `--info-fd`), after each sweep: resolves
   * once the processes the sweep cannot see directly are gone (bwrap's pid namespace).
   */
  awaitGone?: (fd4Text: string) => Promise<void>;
  /**
   * A unique value set as {@link RUN_TAG_VARIABLE} in the environment of the run, which every descendant inherits:
   * the sweep also kills the processes that carry it (found through `/proc`), which catches descendants that left
   * the process group (`setsid`, double forks). Used when no namespace contains the run (UnsafeLocalSandbox);
   * undefined when one does (bwrap's pid namespace dies with it).
   */
  tag: string | undefined;
  /** Leave processes alive when the command exits normally (they still die on timeout and cancellation). */
  keepBackground: boolean;
  /** Turns a spawn failure (for example ENOENT for a missing binary) into the error the caller should see. */
  spawnError: (cause: Error) => Error;
}

/**
 * Spawns `file` in a new process group, captures output within the budget, and sweeps the run's processes (the
 * group and, with a tag, every tagged process) when the command exits, when the timeout fires and when the signal
 * aborts. Resolves once the sweep is over and the pipes closed, or {@link KILL_GRACE_MS} after the command ended at
 * the latest (a process that escaped the sweep may hold the pipes open).
 *
 * @throws the signal's reason after killing the tree when `signal` aborts; the `spawnError` result when spawning fails.
 */
export function runProcessTree(run: ProcessTreeRun): Promise<SandboxResult> {
  run.signal.throwIfAborted();
  const started = performance.now();
  const env = run.tag === undefined ? run.env : { ...run.env, [RUN_TAG_VARIABLE]: run.tag };
  const stdio: ('ignore' | 'pipe')[] = ['ignore', 'pipe', 'pipe', run.fd3Data === undefined ? 'ignore' : 'pipe', run.awaitGone === undefined ? 'ignore' : 'pipe'];
  const child = spawnOrThrow(run, env, stdio);
  let fd4Text = '';
  if (run.awaitGone !== undefined) {
    const info = child.stdio[4] as Readable;
    info.on('data', (chunk: Buffer) => {
      if (fd4Text.length < 4096) fd4Text += chunk.toString('utf8');
    });
    info.on('error', () => undefined);
  }
  const output = new OutputCapture(run.maxOutputBytes, run.onOutput);
  child.stdout!.on('data', (chunk: Buffer) => output.push('stdout', chunk));
  child.stderr!.on('data', (chunk: Buffer) => output.push('stderr', chunk));
  if (run.fd3Data !== undefined) {
    const channel = child.stdio[3] as Writable;
    // The process may die before reading (a bad option): its exit status reports that, not a write error.
    channel.on('error', () => undefined);
    channel.end(run.fd3Data);
  }

  return new Promise<SandboxResult>((resolvePromise, reject) => {
    let timedOut = false;
    let exitCode: number | null = null;
    let sweeping: Promise<void> | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    const awaitPipes = (): void => {
      graceTimer ??= setTimeout(() => finish(), KILL_GRACE_MS);
    };
    const sweep = (): void => {
      sweeping ??= killTree(child.pid, run.tag).then(() => run.awaitGone?.(fd4Text));
      awaitPipes();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      sweep();
    }, run.timeoutMs);
    run.signal.addEventListener('abort', sweep, { once: true });

    let done = false;
    const finish = (error?: Error): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      run.signal.removeEventListener('abort', sweep);
      child.stdio.forEach((stream) => stream?.destroy());
      // Wait for the sweep to end so no process of this call survives the returned promise.
      void (sweeping ?? Promise.resolve()).then(() => {
        if (error) return reject(error);
        if (run.signal.aborted) return reject(run.signal.reason);
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
    child.once('error', (cause) => finish(run.spawnError(cause)));
    child.once('exit', (code, signal) => {
      exitCode = code ?? (signal ? 128 + constants.signals[signal] : null);
      if (timedOut) return;
      clearTimeout(timer);
      if (run.keepBackground) awaitPipes();
      else sweep();
    });
    child.once('close', () => finish());
  });
}

/**
 * Spawns the run's process. Node reports most spawn failures as an `error` event, but throws others (`E2BIG`,
 * `EINVAL`) at once: those become the run's coded error too.
 */
function spawnOrThrow(run: ProcessTreeRun, env: Readonly<Record<string, string>>, stdio: readonly ('ignore' | 'pipe')[]): ChildProcess {
  try {
    return spawn(run.file, run.args, { cwd: run.cwd, env, detached: true, stdio: [...stdio] });
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'E2BIG') {
      throw new SandboxError('OPTIONS_INVALID', 'execute: the command and its environment exceed what the kernel accepts for one program (E2BIG). Pass large input through a file instead.', { cause });
    }
    throw run.spawnError(cause as Error);
  }
}

/**
 * SIGKILLs the process group led by `pid` and, when `tag` is given, every process whose environment carries it,
 * repeating until two sweeps in a row find none (50 sweeps at most). Between sweeps it waits until the processes it
 * killed are dead: a process killed inside `fork()` finishes the fork first, so its child only shows in `/proc` once
 * the parent has died, and a sweep run before that would miss the child. The second empty sweep covers a process
 * caught inside `execve()`, whose environment reads as empty for that instant.
 */
export async function killTree(pid: number | undefined, tag: string | undefined): Promise<void> {
  if (pid !== undefined) signalQuietly(-pid);
  if (tag === undefined) return;
  let emptySweeps = 0;
  const deadline = performance.now() + DEATH_WAIT_MS;
  for (let sweep = 0; sweep < 50 && emptySweeps < 2; sweep++) {
    const tagged = await findTagged(tag);
    if (tagged.length === 0) {
      emptySweeps++;
      continue;
    }
    emptySweeps = 0;
    tagged.forEach(signalQuietly);
    await waitDead(tagged, deadline);
  }
}

/**
 * How long one {@link killTree} waits in all for the processes it killed to die, in ms; past it, it sweeps without
 * waiting (a process in uninterruptible sleep dies only when its I/O ends).
 */
const DEATH_WAIT_MS = 2_000;

/** Resolves once every pid is a zombie or gone (SIGKILL takes effect when the process next runs), or at `deadline`. */
async function waitDead(pids: readonly number[], deadline: number): Promise<void> {
  let alive = pids;
  while (performance.now() < deadline) {
    alive = (await Promise.all(alive.map(async (p) => ((await isRunning(p)) ? p : undefined)))).filter((p): p is number => p !== undefined);
    if (alive.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Whether `pid` exists and is neither a zombie nor dead (state `Z`/`X` in `/proc/<pid>/stat`). */
async function isRunning(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'latin1').catch(() => '');
  const state = /\) (\S) /.exec(stat)?.[1];
  return state !== undefined && state !== 'Z' && state !== 'X';
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
