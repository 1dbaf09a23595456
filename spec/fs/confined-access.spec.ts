/**
 * The confined file access shared by LocalWorkspace and Skills, tested directly: verified folders, no-follow child
 * folders, and bounded reads that neither block on a FIFO nor read a growing or endless file past the limit.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openChildFolder, openDirectory, openFolder, openFolderSync, withDirectorySync } from '../../lib/fs/directory-handle';
import { ConfinedFsError, describeKind, errnoOf } from '../../lib/fs/errors';
import { readBounded, readBoundedSync } from '../../lib/fs/read-bounded';

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'confined-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'sub', 'file.txt'), 'hello');
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  symlinkSync(outside, join(root, 'out'));
  symlinkSync('sub', join(root, 'in'));
  symlinkSync('sub/file.txt', join(root, 'file-link'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const code = (call: () => unknown): string | undefined => {
  try {
    call();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
};

describe('folders', () => {
  it('reports where an opened folder really is, links followed by the kernel', async () => {
    const folder = await openFolder(join(root, 'in'), 'in');
    expect(folder.real).toBe(join(root, 'sub'));
    expect(folder.view).toMatch(/^\/proc\/self\/fd\/\d+$/);
    await folder.sync();
    await folder.close();
    await folder.close();
    const sync = openFolderSync(join(root, 'out'), 'out');
    expect(sync.real).toBe(outside);
    sync.close();
    sync.close();
  });

  it('refuses a folder outside the root, asynchronously and synchronously', async () => {
    await expect(openDirectory(root, ['out'], 'out')).rejects.toMatchObject({ code: 'FS_OUTSIDE_ROOT', realPath: outside });
    expect(code(() => withDirectorySync(root, ['out'], 'out', () => 1))).toBe('FS_OUTSIDE_ROOT');
    expect(withDirectorySync(root, ['in'], 'in', (dir) => dir.real)).toBe(join(root, 'sub'));
    const top = await openDirectory(root, [], '.');
    expect(top.segments).toEqual([]);
    await top.close();
  });

  it('works with / as the root', async () => {
    const tmp = await openDirectory('/', ['proc', 'self'], 'proc/self');
    expect(tmp.segments).toEqual(['proc', String(process.pid)]);
    await tmp.close();
    expect(withDirectorySync('/', ['proc'], 'proc', (dir) => dir.real)).toBe('/proc');
  });

  it('opens a child folder without following a link at its name', async () => {
    const parent = await openFolder(root, '.');
    try {
      const child = await openChildFolder(parent, 'sub', 'sub');
      expect(child.real).toBe(join(root, 'sub'));
      await child.close();
      await expect(openChildFolder(parent, 'out', 'out')).rejects.toMatchObject({ code: expect.stringMatching(/^(ELOOP|ENOTDIR)$/) });
      await expect(openChildFolder(parent, 'file-link', 'file-link')).rejects.toMatchObject({ code: expect.stringMatching(/^(ELOOP|ENOTDIR)$/) });
      await expect(openChildFolder(parent, 'missing', 'missing')).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await parent.close();
    }
  });

  it('opens a FIFO as a folder without blocking: ENOTDIR', () => {
    execFileSync('mkfifo', [join(root, 'pipe')]);
    expect(code(() => openFolderSync(join(root, 'pipe'), 'pipe'))).toBe('ENOTDIR');
  });
});

describe('bounded reads', () => {
  const inRoot = (): { real: string; view: string } => ({ real: root, view: root });

  it('reads a regular file through the folder, and reports its fstat', async () => {
    const sub = { real: join(root, 'sub'), view: join(root, 'sub') };
    expect((await readBounded(sub, 'file.txt', 'f', 5)).bytes.toString()).toBe('hello');
    expect(readBoundedSync(sub, 'file.txt', 'f', 5).stats.size).toBe(5);
  });

  it('refuses a file over the limit by its size, before reading', async () => {
    const sub = { real: join(root, 'sub'), view: join(root, 'sub') };
    await expect(readBounded(sub, 'file.txt', 'f', 4)).rejects.toMatchObject({ code: 'FS_TOO_LARGE', size: 5, limit: 4 });
    expect(code(() => readBoundedSync(sub, 'file.txt', 'f', 4))).toBe('FS_TOO_LARGE');
  });

  it('refuses a name that is a link (O_NOFOLLOW) as a change of the path', async () => {
    await expect(readBounded(inRoot(), 'file-link', 'file-link', 100)).rejects.toMatchObject({ code: 'FS_PATH_CHANGED' });
    expect(code(() => readBoundedSync(inRoot(), 'file-link', 'file-link', 100))).toBe('FS_PATH_CHANGED');
  });

  it('refuses a FIFO without blocking, and a folder', async () => {
    execFileSync('mkfifo', [join(root, 'pipe')]);
    await expect(readBounded(inRoot(), 'pipe', 'pipe', 100)).rejects.toMatchObject({ code: 'FS_NOT_A_FILE', kind: 'a FIFO (named pipe)' });
    expect(code(() => readBoundedSync(inRoot(), 'pipe', 'pipe', 100))).toBe('FS_NOT_A_FILE');
    await expect(readBounded(inRoot(), 'sub', 'sub', 100)).rejects.toMatchObject({ code: 'FS_NOT_A_FILE', kind: 'a directory' });
  });

  it('refuses /dev/zero, an endless device, without reading it', async () => {
    const dev = { real: '/dev', view: '/dev' };
    await expect(readBounded(dev, 'zero', '/dev/zero', 100)).rejects.toMatchObject({ code: 'FS_NOT_A_FILE', kind: 'a device or other special file' });
    expect(code(() => readBoundedSync(dev, 'zero', '/dev/zero', 100))).toBe('FS_NOT_A_FILE');
  });

  it('reads a file that is longer than its size said (it grew) up to the limit, then refuses it', async () => {
    // /proc files report size 0 and hold more: the same as a file that grows between the fstat and the read.
    const proc = { real: '/proc/self', view: '/proc/self' };
    const text = (await readBounded(proc, 'status', 'status', 1 << 20)).bytes.toString();
    expect(text).toMatch(/^Name:/);
    expect(readBoundedSync(proc, 'status', 'status', 1 << 20).bytes.length).toBeGreaterThan(100);
    await expect(readBounded(proc, 'status', 'status', 10)).rejects.toMatchObject({ code: 'FS_TOO_LARGE', limit: 10 });
    expect(code(() => readBoundedSync(proc, 'status', 'status', 10))).toBe('FS_TOO_LARGE');
    expect(code(() => readBoundedSync(proc, 'status', 'status', 0))).toBe('FS_TOO_LARGE');
  });

  it('passes other system errors through for the caller to translate', async () => {
    await expect(readBounded(inRoot(), 'missing', 'missing', 10)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(code(() => readBoundedSync(inRoot(), 'missing', 'missing', 10))).toBe('ENOENT');
  });
});

describe('errors', () => {
  it('describes every kind of file that is not a regular file', () => {
    expect(describeKind(lstatSync(join(root, 'in')))).toBe('a symbolic link');
    expect(describeKind(lstatSync('/dev/null'))).toBe('a device or other special file');
    expect(describeKind({ isDirectory: () => false, isFIFO: () => false, isSocket: () => true })).toBe('a socket');
    expect(describeKind({ isDirectory: () => false, isFIFO: () => false, isSocket: () => false })).toBe('a device or other special file');
  });

  it('carries the path, the detail and the cause', () => {
    const cause = new Error('low');
    const error = new ConfinedFsError('FS_LINK_LOOP', 'a/b', 'too many links', { cause });
    expect(error).toMatchObject({ code: 'FS_LINK_LOOP', path: 'a/b', detail: 'too many links', message: "Refused 'a/b': too many links.", cause });
    expect(new ConfinedFsError('FS_NOT_FOUND', 'x', 'gone').cause).toBeUndefined();
    expect(errnoOf(null)).toBeUndefined();
    expect(errnoOf({ code: 5 })).toBeUndefined();
    expect(errnoOf({ code: 'EIO' })).toBe('EIO');
  });
});
