import { spawn } from 'node:child_process';

/** What one ripgrep run gave: its exit code (null when killed), its output, and why it was stopped early, if it was. */
export interface RipgrepRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** `spawn`: the binary could not be started; `abort`: the signal fired; `output`: stdout passed `maxOutput`. */
  readonly stopped?: 'spawn' | 'abort' | 'output';
  readonly spawnError?: string;
}

/** Largest stderr kept (ripgrep's error lines). */
const MAX_STDERR = 64 * 1024;

/**
 * Runs ripgrep with an argument array, never through a shell, in `cwd`, with an empty environment (so no
 * `RIPGREP_CONFIG_PATH` or other variable can add options) and stdin closed. The child is killed (SIGKILL) when
 * `signal` fires or when its output passes `maxOutput` bytes.
 */
export function runRipgrep(rg: string, args: readonly string[], cwd: string, signal: AbortSignal, maxOutput: number): Promise<RipgrepRun> {
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let stopped: RipgrepRun['stopped'];
    let spawnError: string | undefined;
    const child = spawn(rg, args, { cwd, env: {}, stdio: ['ignore', 'pipe', 'pipe'], shell: false, windowsHide: true });
    const kill = (why: 'abort' | 'output') => {
      stopped ??= why;
      child.kill('SIGKILL');
    };
    const onAbort = () => kill('abort');
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      if (stopped !== undefined) return;
      outBytes += chunk.length;
      out.push(chunk);
      if (outBytes > maxOutput) kill('output');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (errBytes < MAX_STDERR) err.push(chunk);
      errBytes += chunk.length;
    });
    const finish = (code: number | null) => {
      signal.removeEventListener('abort', onAbort);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), stopped, spawnError });
    };
    child.on('error', (error) => {
      stopped = 'spawn';
      spawnError = error.message;
      if (child.pid === undefined) finish(null);
    });
    child.on('close', finish);
  });
}
