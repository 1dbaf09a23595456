import { Writable } from 'node:stream';
import type Docker from 'dockerode';

/** Options of one {@link runArgv} call. */
export interface ArgvOptions {
  /** User of the program (`uid:gid` or a name). Default: the container's user. */
  readonly user?: string;
  /** Absolute working directory in the container. Default: the container's. */
  readonly workingDir?: string;
  /** Bytes written to the program's standard input, which is then closed. Default: no standard input. */
  readonly stdin?: Uint8Array;
  /** Kills the program (SIGKILL, inside the container) when it fires. */
  readonly signal?: AbortSignal;
  /** Kills the program once its standard output passes this many bytes; the output kept stops there. */
  readonly maxOutputBytes?: number;
}

/** What one exec printed, and how it ended. */
export interface ArgvResult {
  /** The program's exit status; null when the engine still reported it running a second after its output ended. */
  readonly exitCode: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
  /** Why the program was killed, when it was: `abort` (the signal fired) or `output` (past `maxOutputBytes`). */
  readonly stopped?: 'abort' | 'output';
}

/**
 * The wrapper of a program that may have to be killed: it prints its own pid (which the program keeps, through
 * `exec`) on the first line of standard output, so the pid inside the container is known without any host view.
 */
const KILLABLE_SCRIPT = 'echo $$; exec "$@"';

/**
 * Runs one program in a running container with its arguments as an array (the engine hands them to `execve`, no
 * shell reads them), and collects its output. A fixed `sh -c` script may be the program: paths then reach it only
 * as positional parameters (`"$1"`), never inside the script text. With a signal or an output cap the program runs
 * under a fixed `/bin/sh` wrapper that reports its pid, and is killed by an exec of `kill -9` when stopped.
 *
 * @throws the engine's error (unreachable engine, container gone).
 */
export async function runArgv(container: Docker.Container, argv: readonly string[], options: ArgvOptions = {}): Promise<ArgvResult> {
  const { signal, maxOutputBytes, stdin } = options;
  if (signal?.aborted === true) return { exitCode: null, stdout: Buffer.alloc(0), stderr: '', stopped: 'abort' };
  const killable = signal !== undefined || maxOutputBytes !== undefined;
  const exec = await container.exec({
    Cmd: killable ? ['/bin/sh', '-c', KILLABLE_SCRIPT, 'sh', ...argv] : [...argv],
    AttachStdout: true,
    AttachStderr: true,
    AttachStdin: stdin !== undefined,
    ...(options.user === undefined ? {} : { User: options.user }),
    ...(options.workingDir === undefined ? {} : { WorkingDir: options.workingDir }),
  });
  const stream = (await exec.start({ hijack: true, stdin: stdin !== undefined })) as NodeJS.ReadWriteStream;
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let outBytes = 0;
  let stopped: ArgvResult['stopped'];
  let pid: string | undefined;
  let head = killable ? Buffer.alloc(0) : undefined;
  const kills: Promise<unknown>[] = [];
  // Called once at most: the abort listener is removed by the first call, and output is no longer kept after it.
  const kill = (why: 'abort' | 'output') => {
    stopped = why;
    signal?.removeEventListener('abort', onAbort);
    if (pid !== undefined) kills.push(killInside(container, pid, options.user));
  };
  const onAbort = () => kill('abort');
  // The signal may have fired while the exec was being created: then the program is killed once its pid is known.
  if (signal !== undefined && hasFired(signal)) kill('abort');
  else signal?.addEventListener('abort', onAbort, { once: true });
  const ended = new Promise<void>((resolve, reject) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', reject);
  });
  const keep = (chunk: Buffer) => {
    if (stopped !== undefined) return;
    outBytes += chunk.length;
    if (maxOutputBytes !== undefined && outBytes > maxOutputBytes) {
      out.push(chunk.subarray(0, chunk.length - (outBytes - maxOutputBytes)));
      kill('output');
    } else out.push(chunk);
  };
  container.modem.demuxStream(stream, sink((chunk) => {
    if (head === undefined) return keep(chunk);
    head = Buffer.concat([head, chunk]);
    const newline = head.indexOf(10);
    if (newline < 0) return;
    pid = head.subarray(0, newline).toString('latin1');
    const rest = head.subarray(newline + 1);
    head = undefined;
    if (stopped !== undefined) kills.push(killInside(container, pid, options.user));
    if (rest.length > 0) keep(rest);
  }), sink((chunk) => err.push(chunk)));
  if (stdin !== undefined) stream.end(Buffer.from(stdin.buffer, stdin.byteOffset, stdin.byteLength));
  try {
    await ended;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  await Promise.all(kills);
  return { exitCode: await exitCodeOf(exec), stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), ...(stopped === undefined ? {} : { stopped }) };
}

/** Kills a process inside the container by its pid there; a process already gone is no failure. */
async function killInside(container: Docker.Container, pid: string, user: string | undefined): Promise<void> {
  await runArgv(container, ['kill', '-9', pid], { user }).catch(() => undefined);
}

/** Reads the signal's state afresh (a check before an `await` says nothing about after it). */
function hasFired(signal: AbortSignal): boolean {
  return signal.aborted;
}

function sink(take: (chunk: Buffer) => void): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      take(chunk);
      done();
    },
  });
}

/** The exec's exit code; the engine may report it a moment after the output stream ended. */
export async function exitCodeOf(exec: Pick<Docker.Exec, 'inspect'>): Promise<number | null> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const info = await exec.inspect();
    if (!info.Running) return info.ExitCode;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return null;
}
