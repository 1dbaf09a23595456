/**
 * LocalWorkspace where `/proc/self/fd` cannot be read (macOS, BSD, a Linux without /proc): the same refusals must
 * hold through the fallback (real path first, open with O_NOFOLLOW, compare device and inode).
 */
import { mkdirSync, readdirSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type * as WorkspaceModule from '../../lib/workspace';
import { makeSandbox, type Sandbox } from './fixtures';
import { loadWithoutProc } from '../support/without-proc';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const fs = require('node:fs') as typeof import('node:fs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsp = require('node:fs/promises') as typeof import('node:fs/promises');


let box: Sandbox;
let ws: WorkspaceModule.LocalWorkspace;

beforeEach(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const isolatedModule = loadWithoutProc(() => require('../../lib/workspace') as typeof WorkspaceModule);
  box = makeSandbox();
  ws = new isolatedModule.LocalWorkspace(box.root);
  box.put('root/sub/data.txt', 'inside');
});
afterEach(() => {
  jest.restoreAllMocks();
  box.cleanup();
});

it('reads, writes, edits, lists, stats and globs inside the root', async () => {
  expect(await ws.readFile('sub/data.txt')).toBe('inside');
  await ws.writeFile('sub/new/file.txt', 'new');
  expect(await ws.editFile('sub/new/file.txt', 'new', 'edited')).toBe(1);
  expect(await ws.readFile('sub/new/file.txt')).toBe('edited');
  expect((await ws.listDir('sub')).map((e) => e.path)).toEqual(['sub/data.txt', 'sub/new']);
  expect(await ws.stat('sub')).toMatchObject({ isDirectory: true });
  expect((await ws.glob('**/*.txt')).map((e) => e.path)).toEqual(['sub/data.txt', 'sub/new/file.txt']);
  expect(fsp.readlink).toHaveBeenCalledWith(expect.stringMatching(/^\/proc\/self\/fd\/\d+$/));
});

it('refuses links to the outside, to files and to folders', async () => {
  symlinkSync(join(box.outside, 'secret.txt'), join(box.root, 'file-link'));
  symlinkSync(box.outside, join(box.root, 'dir-link'));
  await expect(ws.readFile('file-link')).rejects.toMatchObject({ code: 'PATH_OUTSIDE_WORKSPACE' });
  await expect(ws.readFile('dir-link/secret.txt')).rejects.toMatchObject({ code: 'PATH_OUTSIDE_WORKSPACE' });
  await expect(ws.writeFile('dir-link/new.txt', 'x')).rejects.toMatchObject({ code: 'PATH_OUTSIDE_WORKSPACE' });
  await expect(ws.listDir('dir-link')).rejects.toMatchObject({ code: 'PATH_OUTSIDE_WORKSPACE' });
  await expect(ws.glob('dir-link/*')).rejects.toMatchObject({ code: 'PATH_OUTSIDE_WORKSPACE' });
  expect(readdirSync(box.outside)).toEqual(['secret.txt']);
});

/** Runs `swap` once, right after the `open` of a folder whose path ends with `suffix` has returned. */
function swapAfterOpen(suffix: string, swap: () => void): void {
  const original = fsp.open;
  let done = false;
  jest.spyOn(fsp, 'open').mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
    const handle = await original(...args);
    if (!done && String(args[0]).endsWith(suffix)) {
      done = true;
      swap();
    }
    return handle;
  });
}

it('notices a folder replaced right after it was opened', async () => {
  await ws.stat('.'); // the first access finds out that /proc is missing
  swapAfterOpen('/sub', () => {
    renameSync(join(box.root, 'sub'), join(box.root, 'sub-old'));
    mkdirSync(join(box.root, 'sub'));
  });
  await expect(ws.readFile('sub/data.txt')).rejects.toMatchObject({ code: 'PATH_CHANGED' });
});

it('refuses a folder that became a link between resolving and opening it', async () => {
  await ws.stat('.');
  const realpath = fsp.realpath;
  jest.spyOn(fsp, 'realpath').mockImplementation(async (...args: Parameters<typeof fsp.realpath>) => {
    const real = await realpath(...args);
    if (!String(args[0]).endsWith('/sub')) return real;
    renameSync(join(box.root, 'sub'), join(box.root, 'sub-old'));
    symlinkSync(box.outside, join(box.root, 'sub'));
    return real;
  });
  await expect(ws.listDir('sub')).rejects.toMatchObject({ code: 'PATH_CHANGED' });
});

it('finds out about the missing /proc from glob too, and refuses links out there', async () => {
  symlinkSync(box.outside, join(box.root, 'dir-link'));
  expect((await ws.glob('**/*.txt')).map((e) => e.path)).toEqual(['sub/data.txt']);
  await expect(ws.glob('dir-link/*')).rejects.toMatchObject({ code: 'PATH_OUTSIDE_WORKSPACE' });
});

it('notices a folder replaced right after glob opened it', async () => {
  await ws.stat('.');
  const openSync = fs.openSync;
  let done = false;
  jest.spyOn(fs, 'openSync').mockImplementation((...args: Parameters<typeof fs.openSync>) => {
    const fd = openSync(...args);
    if (!done && String(args[0]).endsWith('/sub')) {
      done = true;
      renameSync(join(box.root, 'sub'), join(box.root, 'sub-old'));
      mkdirSync(join(box.root, 'sub'));
    }
    return fd;
  });
  await expect(ws.glob('sub/*')).rejects.toMatchObject({ code: 'PATH_CHANGED' });
});
