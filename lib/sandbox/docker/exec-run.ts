import { Writable } from 'node:stream';
import type Docker from 'dockerode';
import { OutputCapture } from '../output-capture';
import { KILL_GRACE_MS } from '../process-tree';
import type { SandboxOutputChunk, SandboxResult } from '../sandbox';
import { CALL_WRAPPER_SCRIPT } from './container-script';

/** What {@link runExec} needs to run one command in a running container. */
export interface ExecRun {
  /** The engine client (its modem demultiplexes the output). */
  docker: Docker;
  /** The running container. */
  container: Docker.Container;
  /** Shell command line, run with `shell -c`. */
  command: string;
  /** Absolute path, in the container, of the shell that runs the command (`/bin/sh` or the image's bash). */
  shell: string;
  /**
   * The call's variables; sent in the exec request only, never in the container's config. The engine adds them to
   * the container's own (the image's `ENV`) and its `HOSTNAME`, which the wrapper drops unless `env` sets it.
   */
  env: Readonly<Record<string, string>>;
  /** Container path of the working directory, or undefined for the container's. */
  workingDir: string | undefined;
  /** `uid:gid` or user name for the exec, or undefined for the container's. */
  user: string | undefined;
  /** Wall-clock limit, in ms. */
  timeoutMs: number;
  /** Budget for stdout + stderr, in bytes. */
  maxOutputBytes: number;
  /** Receives the kept output as it arrives (see `SandboxExecuteOptions.onOutput`). */
  onOutput?: ((chunk: SandboxOutputChunk) => void) | undefined;
  /** Aborting sweeps the call's processes and rejects with the signal's reason. */
  signal: AbortSignal;
  /** Leave background processes alive when the command exits normally. */
  keepBackground: boolean;
  /** Kills the call's processes inside the container; resolves false when that failed. */
  sweep: () => Promise<boolean>;
  /** Kills every process of the container (the container itself): the fallback when a sweep fails. */
  killContainer: () => Promise<void>;
}

/**
 * Runs `shell -c command` through a Docker exec (inside a wrapper that sweeps the call's processes when the command
 * exits, see {@link CALL_WRAPPER_SCRIPT}), demultiplexing its output into the capped capture while reading.
 * Docker has no "kill this exec" call and a command's descendants can leave its process group, so when the command
 * exits (unless `keepBackground`), times out or is cancelled, `sweep` kills its processes from inside the container.
 * When the sweep fails, or the command's output does not end after it, the container is killed instead: its init
 * dies and the kernel kills everything in its pid namespace; the DockerSandbox starts it again for the next command.
 *
 * `oomKilled` is true when the exec ended with SIGKILL (137) and the engine recorded an `oom` event for the container
 * while it ran.
 *
 * @throws the signal's reason after the kill when `signal` aborts; engine errors as they come.
 */
export async function runExec(run: ExecRun): Promise<SandboxResult> {
  run.signal.throwIfAborted();
  const started = performance.now();
  const startedAt = Date.now();
  const exec = await run.container.exec({
    Cmd: ['/bin/sh', '-c', CALL_WRAPPER_SCRIPT, 'sh', run.command, run.keepBackground ? 'keep' : 'sweep', run.shell, 'HOSTNAME' in run.env ? 'keep-hostname' : 'drop-hostname'],
    Env: Object.entries(run.env).map(([k, v]) => `${k}=${v}`),
    AttachStdout: true,
    AttachStderr: true,
    ...(run.workingDir === undefined ? {} : { WorkingDir: run.workingDir }),
    ...(run.user === undefined ? {} : { User: run.user }),
  });
  const stream = (await exec.start({ hijack: true, stdin: false })) as NodeJS.ReadableStream & { destroy(): void };
  const output = new OutputCapture(run.maxOutputBytes, run.onOutput);
  run.docker.modem.demuxStream(stream, sink(output, 'stdout'), sink(output, 'stderr'));

  const ended = new Promise<void>((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', () => resolve());
  });
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<'timeout' | 'abort'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), run.timeoutMs);
    onAbort = () => resolve('abort');
    // The signal may have fired while the exec was being created.
    if (run.signal.aborted) onAbort();
    else run.signal.addEventListener('abort', onAbort, { once: true });
  });
  const outcome = await Promise.race([ended.then(() => 'ended' as const), stopped]);
  clearTimeout(timer);
  run.signal.removeEventListener('abort', onAbort!);
  if (outcome !== 'ended') {
    const swept = await run.sweep();
    const gone = swept && (await Promise.race([ended.then(() => true), delay(KILL_GRACE_MS).then(() => false)]));
    if (!gone) {
      await run.killContainer();
      await Promise.race([ended, delay(KILL_GRACE_MS)]);
    }
    stream.destroy();
    if (outcome === 'abort') throw run.signal.reason;
  }

  const exitCode = outcome === 'timeout' ? null : await exitCodeOf(exec);
  if (outcome === 'ended' && !run.keepBackground && !(await run.sweep())) await run.killContainer();
  return {
    exitCode,
    stdout: output.text('stdout'),
    stderr: output.text('stderr'),
    timedOut: outcome === 'timeout',
    truncated: output.truncated,
    durationMs: performance.now() - started,
    oomKilled: exitCode === 137 && (await sawOom(run.docker, run.container.id, startedAt)),
  };
}

function sink(output: OutputCapture, stream: 'stdout' | 'stderr'): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      output.push(stream, chunk);
      done();
    },
  });
}

/** The exec's exit code; the engine may report it a moment after the output stream ended. */
async function exitCodeOf(exec: Docker.Exec): Promise<number | null> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const info = await exec.inspect();
    if (!info.Running) return info.ExitCode;
    await delay(20);
  }
  return null;
}

/** True when the engine logged an `oom` event for the container since `sinceMs` (epoch ms). */
async function sawOom(docker: Docker, containerId: string, sinceMs: number): Promise<boolean> {
  const events = await docker.getEvents({
    since: Math.floor(sinceMs / 1000),
    until: Math.ceil(Date.now() / 1000),
    filters: { container: [containerId], event: ['oom'] },
  });
  let text = '';
  for await (const chunk of events as AsyncIterable<Buffer>) text += chunk.toString('utf8');
  return text.trim() !== '';
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
