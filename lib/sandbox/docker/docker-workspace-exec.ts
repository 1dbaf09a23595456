import { Writable } from 'node:stream';
import type Docker from 'dockerode';

/** What one exec printed, and how it ended. */
export interface ArgvResult {
  readonly exitCode: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/**
 * Runs one program in a running container with its arguments as an array (the engine hands them to `execve`, no
 * shell reads them), and collects its output. A fixed `sh -c` script may be the program: paths then reach it only
 * as positional parameters (`"$1"`), never inside the script text.
 *
 * @throws the engine's error (unreachable engine, container gone).
 */
export async function runArgv(container: Docker.Container, argv: readonly string[], user: string | undefined): Promise<ArgvResult> {
  const exec = await container.exec({
    Cmd: [...argv],
    AttachStdout: true,
    AttachStderr: true,
    ...(user === undefined ? {} : { User: user }),
  });
  const stream = (await exec.start({ hijack: true, stdin: false })) as NodeJS.ReadableStream;
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const ended = new Promise<void>((resolve, reject) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', reject);
  });
  container.modem.demuxStream(stream, collect(out), collect(err));
  await ended;
  return { exitCode: await exitCodeOf(exec), stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') };
}

function collect(into: Buffer[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      into.push(chunk);
      done();
    },
  });
}

/** The exec's exit code; the engine may report it a moment after the output stream ended. */
async function exitCodeOf(exec: Docker.Exec): Promise<number | null> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const info = await exec.inspect();
    if (!info.Running) return info.ExitCode;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return null;
}
