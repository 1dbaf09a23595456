/**
 * The confined file access where `/proc/self/fd` cannot be read (macOS, BSD, a Linux without /proc): real paths are
 * resolved first, opened with O_NOFOLLOW and compared (device and inode) with the path, and swaps that persist are
 * caught.
 */
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Handles from '../../lib/fs/directory-handle';
import { loadWithoutProc } from '../support/without-proc';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const fs = require('node:fs') as typeof import('node:fs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsp = require('node:fs/promises') as typeof import('node:fs/promises');


let base: string;
let handles: typeof Handles;

beforeEach(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  handles = loadWithoutProc(() => require('../../lib/fs/directory-handle') as typeof Handles);
  base = realpathSync(mkdtempSync(join(tmpdir(), 'confined-noproc-')));
  mkdirSync(join(base, 'root', 'sub', 'child'), { recursive: true });
  mkdirSync(join(base, 'outside'));
  symlinkSync(join(base, 'outside'), join(base, 'root', 'out'));
});
afterEach(() => {
  jest.restoreAllMocks();
  rmSync(base, { recursive: true, force: true });
});

it('opens folders by their real path, synchronously first', async () => {
  const sync = handles.openFolderSync(join(base, 'root', 'out'), 'out');
  expect(sync).toMatchObject({ real: join(base, 'outside'), view: join(base, 'outside') });
  sync.close();
  const folder = await handles.openFolder(join(base, 'root', 'sub'), 'sub');
  expect(folder).toMatchObject({ real: join(base, 'root', 'sub'), view: join(base, 'root', 'sub') });
  const child = await handles.openChildFolder(folder, 'child', 'sub/child');
  expect(child.real).toBe(join(base, 'root', 'sub', 'child'));
  await child.close();
  await folder.close();
  await expect(handles.openDirectory(join(base, 'root'), ['out'], 'out')).rejects.toMatchObject({ code: 'FS_OUTSIDE_ROOT' });
});

it('opens folders by their real path, asynchronously first', async () => {
  const folder = await handles.openFolder(join(base, 'root', 'out'), 'out');
  expect(folder.view).toBe(join(base, 'outside'));
  await folder.close();
  expect(() => handles.withDirectorySync(join(base, 'root'), ['out'], 'out', () => 1)).toThrow(expect.objectContaining({ code: 'FS_OUTSIDE_ROOT' }));
});

it('notices a folder replaced between resolving and opening it', async () => {
  const realpathSync = fs.realpathSync;
  jest.spyOn(fs, 'realpathSync').mockImplementation(((...args: Parameters<typeof fs.realpathSync>) => {
    const real = realpathSync(...args);
    renameSync(join(base, 'root', 'sub'), join(base, 'root', 'sub-old'));
    symlinkSync(join(base, 'outside'), join(base, 'root', 'sub'));
    return real;
  }) as typeof fs.realpathSync);
  expect(() => handles.openFolderSync(join(base, 'root', 'sub'), 'sub')).toThrow(expect.objectContaining({ code: 'FS_PATH_CHANGED' }));
});

it('notices a folder replaced right after it was opened (sync)', () => {
  handles.openFolderSync(base, '.').close(); // finds out that /proc is missing
  const openSync = fs.openSync;
  let done = false;
  jest.spyOn(fs, 'openSync').mockImplementation(((...args: Parameters<typeof fs.openSync>) => {
    const fd = openSync(...args);
    if (done) return fd;
    done = true;
    renameSync(join(base, 'root', 'sub'), join(base, 'root', 'sub-old'));
    mkdirSync(join(base, 'root', 'sub'));
    return fd;
  }) as typeof fs.openSync);
  expect(() => handles.openFolderSync(join(base, 'root', 'sub'), 'sub')).toThrow(expect.objectContaining({ code: 'FS_PATH_CHANGED' }));
});

it('notices a child folder replaced right after it was opened, or gone', async () => {
  const parent = await handles.openFolder(join(base, 'root', 'sub'), 'sub');
  const open = fsp.open;
  jest.spyOn(fsp, 'open').mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
    const handle = await open(...args);
    renameSync(join(base, 'root', 'sub', 'child'), join(base, 'root', 'sub', 'child-old'));
    if (String(args[0]).endsWith('/child')) mkdirSync(join(base, 'root', 'sub', 'child'));
    return handle;
  });
  await expect(handles.openChildFolder(parent, 'child', 'sub/child')).rejects.toMatchObject({ code: 'FS_PATH_CHANGED' });
  await parent.close();
});

describe('a parent swapped for a link between resolving the real path and opening it', () => {
  /** Swaps `<base>/root/sub` for a link to `<base>/outside` (which has its own `child`) right after one realpath. */
  function swapAfterRealpath(): { swaps: () => number } {
    mkdirSync(join(base, 'outside', 'child'));
    let swaps = 0;
    const swap = () => {
      if (swaps > 0) return;
      swaps++;
      renameSync(join(base, 'root', 'sub'), join(base, 'root', 'sub-old'));
      symlinkSync(join(base, 'outside'), join(base, 'root', 'sub'));
    };
    const realpathSync = fs.realpathSync;
    jest.spyOn(fs, 'realpathSync').mockImplementation(((...args: Parameters<typeof fs.realpathSync>) => {
      const real = realpathSync(...args);
      swap();
      return real;
    }) as typeof fs.realpathSync);
    const realpath = fsp.realpath;
    jest.spyOn(fsp, 'realpath').mockImplementation(async (...args: Parameters<typeof fsp.realpath>) => {
      const real = await realpath(...args);
      swap();
      return real;
    });
    return { swaps: () => swaps };
  }

  it('openFolderSync refuses it', () => {
    const forced = swapAfterRealpath();
    expect(() => handles.openFolderSync(join(base, 'root', 'sub', 'child'), 'sub/child')).toThrow(expect.objectContaining({ code: 'FS_PATH_CHANGED' }));
    expect(forced.swaps()).toBe(1);
  });

  it('openFolder refuses it', async () => {
    const forced = swapAfterRealpath();
    await expect(handles.openFolder(join(base, 'root', 'sub', 'child'), 'sub/child')).rejects.toMatchObject({ code: 'FS_PATH_CHANGED' });
    expect(forced.swaps()).toBe(1);
  });

  it('openDirectory refuses it instead of handing out the outside folder under the inside name', async () => {
    const forced = swapAfterRealpath();
    await expect(handles.openDirectory(join(base, 'root'), ['sub', 'child'], 'sub/child')).rejects.toMatchObject({ code: 'FS_PATH_CHANGED' });
    expect(forced.swaps()).toBe(1);
  });

  it('openChildFolder refuses a child reached through its parent swapped after the parent was opened', async () => {
    mkdirSync(join(base, 'outside', 'child'));
    const parent = await handles.openFolder(join(base, 'root', 'sub'), 'sub');
    renameSync(join(base, 'root', 'sub'), join(base, 'root', 'sub-old'));
    symlinkSync(join(base, 'outside'), join(base, 'root', 'sub'));
    await expect(handles.openChildFolder(parent, 'child', 'sub/child')).rejects.toMatchObject({ code: 'FS_PATH_CHANGED' });
    await parent.close();
  });

  it('still opens the folder when nothing was swapped', async () => {
    const folder = await handles.openFolder(join(base, 'root', 'sub', 'child'), 'sub/child');
    expect(folder.real).toBe(join(base, 'root', 'sub', 'child'));
    await folder.close();
  });
});
