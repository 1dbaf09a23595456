import { Readable } from 'node:stream';
import { virtualFileSystem, type ListedEntry } from '../../../lib/sandbox/docker/docker-workspace-listing';
import { packOneFile, unpackFirstEntry } from '../../../lib/sandbox/docker/docker-workspace-tar';

// The parts of DockerWorkspace that need no engine: the listing seen as a file system, and the tar of one file.
const entry = (path: string, kind: ListedEntry['kind']): ListedEntry => ({
  path, kind, mode: 0, isDirectory: kind === 'directory', isSymlink: kind === 'link', size: null, modifiedMs: 0,
});

describe('virtualFileSystem', () => {
  const fs = virtualFileSystem('/root', [entry('a', 'directory'), entry('a/f', 'file'), entry('l', 'link')]) as unknown as {
    readdir(path: string, options: unknown, callback: (error: Error | null, entries?: { name: string; isDirectory(): boolean; isFile(): boolean; isSymbolicLink(): boolean }[]) => void): void;
    readdirSync(path: string): { name: string }[];
    realpath(path: string, callback: (error: Error | null) => void): void;
    realpathSync(path: string): string;
    stat(path: string, callback: (error: Error | null) => void): void;
    statSync(path: string): unknown;
  };
  const readdir = (path: string) => new Promise((resolve, reject) => fs.readdir(path, {}, (error, entries) => (error ? reject(error) : resolve(entries))));

  it('answers only from the listing, with or without a trailing slash', async () => {
    const root = (await readdir('/root/')) as { name: string; isDirectory(): boolean; isFile(): boolean; isSymbolicLink(): boolean }[];
    expect(root.map((d) => [d.name, d.isDirectory(), d.isFile(), d.isSymbolicLink()])).toEqual([['a', true, false, false], ['l', false, false, true]]);
    expect(fs.readdirSync('/root/a').map((d) => d.name)).toEqual(['f']);
    expect(fs.readdirSync('.').map((d) => d.name)).toEqual(['a', 'l']);
  });

  it('never reaches the host: other folders and every other call fail with ENOENT', async () => {
    await expect(readdir('/etc')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readdir('/root-evil')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(() => fs.readdirSync('/root/missing')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(() => fs.realpathSync('/etc')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(() => fs.statSync('/etc/passwd')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    await expect(new Promise((resolve, reject) => fs.realpath('/etc', (error) => (error ? reject(error) : resolve(undefined))))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(new Promise((resolve, reject) => fs.stat('/etc', (error) => (error ? reject(error) : resolve(undefined))))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

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
