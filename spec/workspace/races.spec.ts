/**
 * Swaps between check and use, provoked for real: a hook on `fs.promises.open` (or `readdir`) changes the file system
 * at the exact moment between LocalWorkspace's checks and its use of the path, then lets the call proceed; and a
 * child process flips a folder with a link to the outside as fast as it can while the workspace reads and writes.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalWorkspace } from '../../lib/workspace';
import { makeSandbox, type Sandbox } from './fixtures';

// The very module object LocalWorkspace calls into, so a spy on it intercepts those calls.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsp = require('node:fs/promises') as typeof import('node:fs/promises');
const linuxOnly = process.platform === 'linux' ? it : it.skip;

let box: Sandbox;
let ws: LocalWorkspace;

beforeEach(() => {
  box = makeSandbox();
  ws = new LocalWorkspace(box.root);
  box.put('root/sub/data.txt', 'inside');
  box.put('outside/data.txt', 'secret');
});
afterEach(() => {
  jest.restoreAllMocks();
  box.cleanup();
});

/** Runs `swap` once, just before the first `open` whose path ends with `suffix`. */
function swapBeforeOpen(suffix: string, swap: () => void): void {
  const original = fsp.open;
  let done = false;
  jest.spyOn(fsp, 'open').mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
    if (!done && String(args[0]).endsWith(suffix)) {
      done = true;
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

describe('a folder flipped with a link to the outside by another process', () => {
  it('never reads the outside file and never writes outside', async () => {
    mkdirSync(join(box.root, 'flip'));
    writeFileSync(join(box.root, 'flip/data.txt'), 'inside');
    const flipper = spawn(process.execPath, ['-e', `
      const fs = require('fs');
      process.chdir(${JSON.stringify(box.root)});
      const end = Date.now() + 20000;
      while (Date.now() < end) {
        try { fs.renameSync('flip', 'flip.real'); fs.symlinkSync(${JSON.stringify(box.outside)}, 'flip');
              fs.unlinkSync('flip'); fs.renameSync('flip.real', 'flip'); } catch {}
      }`], { stdio: 'ignore' });
    try {
      const seen = new Set<string>();
      const deadline = Date.now() + 1500;
      let rounds = 0;
      const record = (e: { code: string; message: string }): string => (e.code === 'IO_ERROR' ? `${e.code}: ${e.message}` : e.code);
      while (Date.now() < deadline) {
        rounds++;
        seen.add(await ws.readFile('flip/data.txt').catch((e: { code: string; message: string }) => record(e)));
        seen.add(await ws.writeFile('flip/w.txt', 'x').then(() => 'WROTE', record));
        for (const listed of await ws.listDir('flip').then((l) => l.map((e) => e.path), (e: { code: string; message: string }) => [record(e)])) seen.add(listed);
      }
      expect(rounds).toBeGreaterThan(50);
      expect([...seen].join(' ')).not.toContain('secret');
      for (const value of seen) {
        // A write may land in a fresh `flip` folder created while the real one was renamed away: still inside.
        expect(['inside', 'WROTE', 'flip/data.txt', 'flip/w.txt', 'NOT_FOUND', 'PATH_OUTSIDE_WORKSPACE', 'PATH_CHANGED', 'NOT_A_DIRECTORY'])
          .toContain(value);
      }
      expect(readdirSync(box.outside).sort()).toEqual(['data.txt', 'secret.txt']);
    } finally {
      flipper.kill();
    }
  });
});
