import { Readable } from 'node:stream';
import { describeKind, engineFailure, parseStat } from '../../../lib/sandbox/docker/docker-workspace-listing';
import { exitCodeOf } from '../../../lib/sandbox/docker/docker-workspace-exec';
import { packOneFile, unpackFirstEntry } from '../../../lib/sandbox/docker/docker-workspace-tar';

// The parts of DockerWorkspace that need no engine: the listing's parsing, and the tar of one file.
describe('tar of one file', () => {
  it('round-trips bytes and mode, and keeps only the first entry', async () => {
    const packed = await packOneFile('name with spaces', new Uint8Array([1, 2, 3]), 0o640);
    const entry = await unpackFirstEntry(Readable.from([packed]), 10);
    expect(entry).toMatchObject({ type: 'file', tooLarge: false });
    expect([...entry!.bytes]).toEqual([1, 2, 3]);
    const two = Buffer.concat([packed.subarray(0, packed.length - 1024), await packOneFile('second', new Uint8Array([9]), 0o600)]);
    expect([...(await unpackFirstEntry(Readable.from([two]), 10))!.bytes]).toEqual([1, 2, 3]);
  });

  it('says when the entry is over the limit without keeping it, and when the archive is empty', async () => {
    const packed = await packOneFile('big', new Uint8Array(11), 0o600);
    expect(await unpackFirstEntry(Readable.from([packed]), 10)).toMatchObject({ tooLarge: true, bytes: Buffer.alloc(0) });
    expect(await unpackFirstEntry(Readable.from([Buffer.alloc(1024)]), 10)).toBeNull();
  });

  it('rejects a broken archive', async () => {
    await expect(unpackFirstEntry(Readable.from([Buffer.from('not a tar archive at all'.repeat(30))]), 10)).rejects.toBeDefined();
  });
});

describe('stat lines', () => {
  it.each([
    ['81a4|12|1700000000|2023-11-14 22:13:20.123456789 +0000', 'file', 12, 1700000000123.4568],
    ['41ed|4096|1700000000|2023-11-14 22:13:20.5 +0000', 'directory', null, 1700000000500],
    ['a1ff|3|1700000000|2023-11-14 22:13:20 +0000', 'link', null, 1700000000000],
    ['11a4|0|1|x', 'fifo', 0, 1000],
    ['c1ed|0|1|x', 'socket', 0, 1000],
    ['21b6|0|1|x', 'device', 0, 1000],
    ['61b0|0|1|x', 'device', 0, 1000],
  ])('parses %j', (line, kind, size, modifiedMs) => {
    const parsed = parseStat('p', line)!;
    expect(parsed).toMatchObject({ path: 'p', kind, size, isDirectory: kind === 'directory', isSymlink: kind === 'link' });
    expect(parsed.modifiedMs).toBeCloseTo(modifiedMs, 3);
  });

  it('returns null for a line stat did not print (the entry vanished)', () => {
    expect(parseStat('p', '')).toBeNull();
    expect(parseStat('p', '81a4|12')).toBeNull();
  });

  it('names each kind in error messages and gives a reason when a helper printed none', () => {
    expect((['file', 'directory', 'link', 'fifo', 'socket', 'device'] as const).map(describeKind))
      .toEqual(['a file', 'a directory', 'a symbolic link', 'a FIFO', 'a socket', 'a device']);
    expect(engineFailure('  \n')).toEqual({ message: 'the helper command failed in the container' });
    expect(engineFailure('mkdir: denied\n')).toEqual({ message: 'mkdir: denied' });
  });
});

describe('exitCodeOf', () => {
  // A fake exec: a real engine reports the exit code by the time the output stream ends, so the wait and the give-up
  // cannot be caused on purpose; the fake reports "running" for a while, then for good.
  const fakeExec = (runningFor: number) => {
    let calls = 0;
    return { inspect: async () => ({ Running: ++calls <= runningFor, ExitCode: 7 }) } as unknown as Pick<import('dockerode').Exec, 'inspect'>;
  };

  it('waits while the engine still reports the exec running, then gives its code', async () => {
    expect(await exitCodeOf(fakeExec(3))).toBe(7);
  });

  it('gives null when the engine reports it running for a whole second', async () => {
    expect(await exitCodeOf(fakeExec(Infinity))).toBeNull();
  });
});
