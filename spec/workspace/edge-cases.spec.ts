import { execFileSync } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { LocalWorkspace } from '../../lib/workspace';
import { makeSandbox, type Sandbox } from './fixtures';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsp = require('node:fs/promises') as typeof import('node:fs/promises');

let box: Sandbox;
let ws: LocalWorkspace;

beforeEach(() => {
  box = makeSandbox();
  ws = new LocalWorkspace(box.root);
});
afterEach(() => {
  jest.restoreAllMocks();
  box.cleanup();
});

const systemError = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: simulated`), { code });

describe('special files', () => {
  it('refuses to read, write or edit a FIFO without blocking on it', async () => {
    execFileSync('mkfifo', [join(box.root, 'pipe')]);
    await expect(ws.readFile('pipe')).rejects.toMatchObject({ code: 'NOT_A_FILE', message: expect.stringContaining('FIFO') });
    await expect(ws.writeFile('pipe', 'x')).rejects.toMatchObject({ code: 'NOT_A_FILE' });
    await expect(ws.editFile('pipe', 'a', 'b')).rejects.toMatchObject({ code: 'NOT_A_FILE' });
    expect(await ws.stat('pipe')).toMatchObject({ isDirectory: false, isSymlink: false });
  });

  it('refuses a socket', async () => {
    const server = createServer();
    await new Promise<void>((done) => server.listen(join(box.root, 'sock'), done));
    try {
      await expect(ws.readBytes('sock')).rejects.toMatchObject({ code: 'NOT_A_FILE', message: expect.stringContaining('socket') });
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('refuses a FIFO swapped in after the check, without blocking', async () => {
    box.put('root/data.txt', 'x');
    const original = fsp.open;
    jest.spyOn(fsp, 'open').mockImplementationOnce(async (...args: Parameters<typeof fsp.open>) => original(...args))
      .mockImplementationOnce(async (...args: Parameters<typeof fsp.open>) => {
        renameSync(join(box.root, 'data.txt'), join(box.root, 'old.txt'));
        execFileSync('mkfifo', [join(box.root, 'data.txt')]);
        return original(...args);
      });
    await expect(ws.readFile('data.txt')).rejects.toMatchObject({ code: 'NOT_A_FILE' });
  });
});

describe('files that change size while being read', () => {
  /** Appends `extra` bytes to the file right after LocalWorkspace has read its size with fstat. */
  function growAfterStat(path: string, extra: number): void {
    const original = fsp.open;
    jest.spyOn(fsp, 'open').mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
      const handle: FileHandle = await original(...args);
      if (String(args[0]).endsWith('/grow.txt')) {
        const stat = handle.stat.bind(handle);
        handle.stat = (async () => {
          const before = await stat();
          appendFileSync(path, 'y'.repeat(extra));
          return before;
        }) as FileHandle['stat'];
      }
      return handle;
    });
  }

  it('reads what the file holds when it grows within the limit', async () => {
    const path = box.put('root/grow.txt', 'xxxx');
    growAfterStat(path, 20);
    expect(await new LocalWorkspace(box.root, { maxFileSize: 100 }).readFile('grow.txt')).toBe(`xxxx${'y'.repeat(20)}`);
  });

  it('refuses a file that grows past the limit while being read', async () => {
    const path = box.put('root/grow.txt', 'xxxx');
    growAfterStat(path, 20);
    await expect(new LocalWorkspace(box.root, { maxFileSize: 10 }).readFile('grow.txt')).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
  });

  it('refuses a file that grows to exactly one byte past the limit', async () => {
    const path = box.put('root/grow.txt', 'xxxx');
    growAfterStat(path, 7);
    await expect(new LocalWorkspace(box.root, { maxFileSize: 10 }).readFile('grow.txt')).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', size: 11 });
  });
});

describe('operating system refusals', () => {
  it('reports a name too long for the file system as an IO error with its errno', async () => {
    await expect(ws.readFile('n'.repeat(300))).rejects.toMatchObject({ code: 'IO_ERROR', errno: 'ENAMETOOLONG' });
  });

  it('reports a failed open as an IO error', async () => {
    box.put('root/a.txt', 'x');
    const original = fsp.open;
    jest.spyOn(fsp, 'open').mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
      if (String(args[0]).endsWith('/a.txt')) throw systemError('EMFILE');
      return original(...args);
    });
    await expect(ws.readFile('a.txt')).rejects.toMatchObject({ code: 'IO_ERROR', errno: 'EMFILE', message: expect.stringContaining("Could not read 'a.txt'") });
  });

  it('leaves no trace when the final step of an exclusive write fails', async () => {
    jest.spyOn(fsp, 'link').mockRejectedValue(systemError('EPERM'));
    await expect(ws.writeFile('a.txt', 'x', { overwrite: false })).rejects.toMatchObject({ code: 'IO_ERROR', errno: 'EPERM' });
    expect(readdirSync(box.root)).toEqual([]);
  });

  it('leaves the old file intact when the disk is full', async () => {
    box.put('root/a.txt', 'old');
    jest.spyOn(fsp, 'rename').mockRejectedValue(systemError('ENOSPC'));
    await expect(ws.writeFile('a.txt', 'new')).rejects.toMatchObject({ code: 'IO_ERROR', message: expect.stringContaining('no space left') });
    expect(readFileSync(join(box.root, 'a.txt'), 'utf8')).toBe('old');
    expect(readdirSync(box.root)).toEqual(['a.txt']);
  });

  it('refuses a root below a file', () => {
    const file = box.put('file');
    expect(() => new LocalWorkspace(join(file, 'sub'))).toThrow(expect.objectContaining({ code: 'NOT_A_DIRECTORY' }));
  });
});

describe('dangling links on the way that point inside', () => {
  it('creates the folder the link points to and writes there', async () => {
    symlinkSync('later/dir', join(box.root, 'pending-dir'));
    await ws.writeFile('pending-dir/deep/file.txt', 'made');
    expect(readFileSync(join(box.root, 'later/dir/deep/file.txt'), 'utf8')).toBe('made');
  });

  it('reports a missing target for reads', async () => {
    symlinkSync('later/dir', join(box.root, 'pending-dir'));
    await expect(ws.readFile('pending-dir/file.txt')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await ws.stat('pending-dir/file.txt')).toBeNull();
  });
});

describe('glob results from the library are checked, not trusted', () => {
  it('refuses a match outside the root even if the library returned one', async () => {
    let isolated: typeof import('../../lib/workspace') | undefined;
    jest.isolateModules(() => {
      jest.doMock('tinyglobby', () => ({ glob: async () => ['../outside/secret.txt'] }));
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      isolated = require('../../lib/workspace') as typeof import('../../lib/workspace');
    });
    const local = new isolated!.LocalWorkspace(box.root);
    await expect(local.glob('*.txt')).rejects.toMatchObject({ code: 'PATH_OUTSIDE_WORKSPACE', message: expect.stringContaining('../outside/secret.txt') });
    jest.dontMock('tinyglobby');
  });

  it('leaves out matches that vanished before they could be described', async () => {
    box.put('root/gone/a.txt', '');
    box.put('root/stay.txt', '');
    let isolated: typeof import('../../lib/workspace') | undefined;
    jest.isolateModules(() => {
      jest.doMock('tinyglobby', () => ({ glob: async () => ['gone/a.txt', 'missing/b.txt', 'stay.txt', 'nothing.txt'] }));
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      isolated = require('../../lib/workspace') as typeof import('../../lib/workspace');
    });
    renameSync(join(box.root, 'gone'), join(box.root, 'moved'));
    const local = new isolated!.LocalWorkspace(box.root);
    expect((await local.glob('**')).map((e) => e.path)).toEqual(['stay.txt']);
    jest.dontMock('tinyglobby');
  });
});
