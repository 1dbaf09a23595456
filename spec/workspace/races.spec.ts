/**
 * Swaps between check and use, provoked for real: a hook on `fs.promises.open` (or `readdir`) changes the file system
 * at the exact moment between LocalWorkspace's checks and its use of the path, then lets the call proceed; and a
 * child process flips a folder or a file with a link to the outside as fast as it can while the workspace reads and
 * writes. Each flip test counts how often the operations met the link, and fails when they never did.
 */
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalWorkspace } from '../../lib/workspace';
import { raceFor, startSwapper, type Swapper } from '../fs/swapper';
import { makeSandbox, type Sandbox } from './fixtures';
import { skippedTitle } from '../support/skip-reason';

// The very module object LocalWorkspace calls into, so a spy on it intercepts those calls.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsp = require('node:fs/promises') as typeof import('node:fs/promises');
const linuxOnly = process.platform === 'linux' ? it : (name: string, fn: jest.ProvidesCallback, timeout?: number) => it.skip(skippedTitle(name, 'needs Linux'), fn, timeout);

let box: Sandbox;
let ws: LocalWorkspace;

beforeEach(() => {
  box = makeSandbox();
  ws = new LocalWorkspace(box.root);
  box.put('root/sub/data.txt', 'inside');
  box.put('outside/data.txt', 'secret');
});
/** Set by a hook that was armed and cleared once it fired: a hook that never fired means the test proved nothing. */
let pendingHook: string | undefined;

afterEach(() => {
  jest.restoreAllMocks();
  box.cleanup();
  const pending = pendingHook;
  pendingHook = undefined;
  expect(pending).toBeUndefined();
});

/** Runs `swap` once, just before the first `open` whose path ends with `suffix`. */
function swapBeforeOpen(suffix: string, swap: () => void): void {
  const original = fsp.open;
  let done = false;
  pendingHook = `open of *${suffix}`;
  jest.spyOn(fsp, 'open').mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
    if (!done && String(args[0]).endsWith(suffix)) {
      done = true;
      pendingHook = undefined;
      swap();
    }
    return original(...args);
  });
}

const swapSubForOutsideLink = (): void => {
  renameSync(join(box.root, 'sub'), join(box.root, 'sub-moved'));
  symlinkSync(box.outside, join(box.root, 'sub'));
};

describe('a swap between the check and the use', () => {
  it('refuses a file replaced by a link to the outside after it was checked', async () => {
    swapBeforeOpen('/data.txt', () => {
      renameSync(join(box.root, 'sub/data.txt'), join(box.root, 'sub/old.txt'));
      symlinkSync(join(box.outside, 'data.txt'), join(box.root, 'sub/data.txt'));
    });
    await expect(ws.readFile('sub/data.txt')).rejects.toMatchObject({ code: 'PATH_CHANGED' });
  });

  linuxOnly('reads from the folder that was checked when it is swapped for a link to the outside', async () => {
    swapBeforeOpen('/data.txt', swapSubForOutsideLink);
    expect(await ws.readFile('sub/data.txt')).toBe('inside');
  });

  linuxOnly('writes into the folder that was checked, never through the link swapped in', async () => {
    swapBeforeOpen('.tmp', swapSubForOutsideLink);
    await ws.writeFile('sub/new.txt', 'written');
    expect(readFileSync(join(box.root, 'sub-moved/new.txt'), 'utf8')).toBe('written');
    expect(readdirSync(box.outside).sort()).toEqual(['data.txt', 'secret.txt']);
  });

  it('refuses to list a folder swapped for a link to the outside after it was checked', async () => {
    swapBeforeOpen('/sub', swapSubForOutsideLink);
    await expect(ws.listDir('sub')).rejects.toMatchObject({ code: 'PATH_OUTSIDE_WORKSPACE' });
  });

  it('refuses to finish an edit when the file was changed meanwhile, keeping the other change', async () => {
    swapBeforeOpen('.tmp', () => writeFileSync(join(box.root, 'sub/data.txt'), 'changed by someone else'));
    await expect(ws.editFile('sub/data.txt', 'inside', 'edited')).rejects.toMatchObject({ code: 'PATH_CHANGED' });
    expect(readFileSync(join(box.root, 'sub/data.txt'), 'utf8')).toBe('changed by someone else');
    expect(readdirSync(join(box.root, 'sub'))).toEqual(['data.txt']);
  });

  it('reports a link that stopped being a link before it could be read', async () => {
    symlinkSync('sub/data.txt', join(box.root, 'lnk'));
    const original = fsp.readlink;
    jest.spyOn(fsp, 'readlink').mockImplementation(async (...args: Parameters<typeof fsp.readlink>) => {
      if (String(args[0]).endsWith('/lnk')) {
        renameSync(join(box.root, 'lnk'), join(box.root, 'old-lnk'));
        writeFileSync(join(box.root, 'lnk'), 'now a file');
      }
      return original(...args);
    });
    await expect(ws.readFile('lnk')).rejects.toMatchObject({ code: 'PATH_CHANGED', message: expect.stringContaining('stopped being a symbolic link') });
  });

  it('refuses an exclusive write when the file appears after the check, keeping what appeared', async () => {
    swapBeforeOpen('.tmp', () => writeFileSync(join(box.root, 'sub/late.txt'), 'first'));
    await expect(ws.writeFile('sub/late.txt', 'second', { overwrite: false })).rejects.toMatchObject({ code: 'ALREADY_EXISTS' });
    expect(readFileSync(join(box.root, 'sub/late.txt'), 'utf8')).toBe('first');
    expect(readdirSync(join(box.root, 'sub')).sort()).toEqual(['data.txt', 'late.txt']);
  });

  it('removes the temporary file when the final step fails', async () => {
    swapBeforeOpen('.tmp', () => {
      renameSync(join(box.root, 'sub/data.txt'), join(box.root, 'sub/gone.txt'));
    });
    await expect(ws.editFile('sub/data.txt', 'inside', 'edited')).rejects.toMatchObject({ code: 'PATH_CHANGED' });
    expect(readdirSync(join(box.root, 'sub'))).toEqual(['gone.txt']);
  });
});

describe('another process flips paths with links to the outside while operations run', () => {
  let swapper: Swapper | undefined;
  afterEach(async () => {
    await swapper?.stop();
    swapper = undefined;
  });

  /** Counts each outcome: a value read or listed, `WROTE`, or an error code (IO errors keep their message). */
  function tally(): { seen: Map<string, number>; add(value: string): void; record(e: { code: string; message: string }): string } {
    const seen = new Map<string, number>();
    return {
      seen,
      add: (value) => void seen.set(value, (seen.get(value) ?? 0) + 1),
      record: (e) => (e.code === 'IO_ERROR' ? `${e.code}: ${e.message}` : e.code),
    };
  }

  it('a folder flipped with a link: never reads the outside file, never writes outside, and meets the link', async () => {
    mkdirSync(join(box.root, 'flip'));
    writeFileSync(join(box.root, 'flip/data.txt'), 'inside');
    // Each step on its own: a write may create a fresh 'flip' while the real one is renamed away, which the next
    // round removes so that the flipping goes on.
    swapper = await startSwapper(box.root, `
      try { fs.renameSync('flip', 'flip.real'); } catch {}
      try { fs.symlinkSync(${JSON.stringify(box.outside)}, 'flip'); } catch {}
      try { fs.unlinkSync('flip'); } catch { try { fs.rmSync('flip', { recursive: true, force: true }); } catch {} }
      try { fs.renameSync('flip.real', 'flip'); } catch {}`);
    const { seen, add, record } = tally();
    await raceFor(async () => {
      add(await ws.readFile('flip/data.txt').catch(record));
      add(await ws.writeFile('flip/w.txt', 'x').then(() => 'WROTE', record));
      for (const listed of await ws.listDir('flip').then((l) => l.map((e) => e.path), (e) => [record(e)])) add(listed);
    }, () => (seen.get('PATH_OUTSIDE_WORKSPACE') ?? 0) >= 20 && (seen.get('inside') ?? 0) > 0);
    await swapper.stop();
    expect([...seen.keys()].join(' ')).not.toContain('secret');
    for (const value of seen.keys()) {
      // A write may land in a fresh `flip` folder created while the real one was renamed away: still inside.
      expect(['inside', 'WROTE', 'flip/data.txt', 'flip/w.txt', 'NOT_FOUND', 'PATH_OUTSIDE_WORKSPACE', 'PATH_CHANGED', 'NOT_A_DIRECTORY'])
        .toContain(value);
    }
    // The link state was met by the operations themselves (refused as outside), not only between them.
    expect(seen.get('PATH_OUTSIDE_WORKSPACE') ?? 0).toBeGreaterThan(0);
    expect(seen.get('inside') ?? 0).toBeGreaterThan(0);
    expect(readdirSync(box.outside).sort()).toEqual(['data.txt', 'secret.txt']);
  });

  it('a file atomically replaced by a link to an outside file and back: never reads it, and meets the link', async () => {
    linkSync(join(box.root, 'sub/data.txt'), join(box.base, 'data.keep'));
    swapper = await startSwapper(join(box.root, 'sub'), `
      fs.symlinkSync(${JSON.stringify(join(box.outside, 'data.txt'))}, 'tmp-link'); fs.renameSync('tmp-link', 'data.txt');
      fs.linkSync(${JSON.stringify(join(box.base, 'data.keep'))}, 'tmp-file'); fs.renameSync('tmp-file', 'data.txt');`);
    const { seen, add, record } = tally();
    const linkMet = (): number => (seen.get('PATH_OUTSIDE_WORKSPACE') ?? 0) + (seen.get('PATH_CHANGED') ?? 0);
    await raceFor(async () => {
      add(await ws.readFile('sub/data.txt').catch(record));
    }, () => linkMet() >= 20);
    await swapper.stop();
    expect([...seen.keys()].sort()).toEqual(expect.arrayContaining(['inside']));
    for (const value of seen.keys()) expect(['inside', 'PATH_OUTSIDE_WORKSPACE', 'PATH_CHANGED']).toContain(value);
    expect(linkMet()).toBeGreaterThan(0);
  });
});
