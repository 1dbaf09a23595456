import { mkdirSync, statSync, symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { LocalWorkspace } from '../../lib/workspace';
import { makeSandbox, type Sandbox } from './fixtures';

let box: Sandbox;
let ws: LocalWorkspace;

beforeEach(() => {
  box = makeSandbox();
  ws = new LocalWorkspace(box.root);
  box.put('root/src/b.ts', 'bb');
  box.put('root/src/a.ts', 'a');
  box.put('root/src/nested/c.ts', 'ccc');
  box.put('root/src/readme.md', '');
  box.put('root/.hidden/h.ts', '');
  box.put('root/top.ts', 'top');
});
afterEach(() => box.cleanup());

describe('listDir', () => {
  it('lists a folder sorted by path with root-relative entries', async () => {
    const entries = await ws.listDir('src');
    expect(entries.map((e) => e.path)).toEqual(['src/a.ts', 'src/b.ts', 'src/nested', 'src/readme.md']);
    expect(entries[1]).toEqual({ path: 'src/b.ts', isDirectory: false, isSymlink: false, size: 2,
      modifiedMs: statSync(join(box.root, 'src/b.ts')).mtimeMs });
    expect(entries[2]).toMatchObject({ isDirectory: true, size: null });
    expect(Object.isFrozen(entries[0])).toBe(true);
  });

  it('lists the root by default and for `.`, `` and `./`, hidden entries included', async () => {
    const names = ['.hidden', 'src', 'top.ts'];
    expect((await ws.listDir()).map((e) => e.path)).toEqual(names);
    expect((await ws.listDir('.')).map((e) => e.path)).toEqual(names);
    expect((await ws.listDir('')).map((e) => e.path)).toEqual(names);
    expect((await ws.listDir('./src/..')).map((e) => e.path)).toEqual(names);
  });

  it('shows links as links without following them', async () => {
    symlinkSync('src/a.ts', join(box.root, 'inside-link'));
    symlinkSync(box.outside, join(box.root, 'outside-link'));
    const entries = await ws.listDir('.');
    expect(entries.find((e) => e.path === 'inside-link')).toMatchObject({ isSymlink: true, isDirectory: false, size: null });
    expect(entries.find((e) => e.path === 'outside-link')).toMatchObject({ isSymlink: true, isDirectory: false, size: null });
  });

  it('lists a folder reached through a link inside the root, under the path asked for', async () => {
    symlinkSync('src/nested', join(box.root, 'alias'));
    expect((await ws.listDir('alias')).map((e) => e.path)).toEqual(['alias/c.ts']);
  });

  it('refuses missing folders and files', async () => {
    await expect(ws.listDir('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(ws.listDir('top.ts')).rejects.toMatchObject({ code: 'NOT_A_DIRECTORY' });
  });
});

describe('stat', () => {
  it('describes files, folders and the root', async () => {
    utimesSync(join(box.root, 'top.ts'), 1_000, 1_700_000_000);
    expect(await ws.stat('top.ts')).toEqual({ path: 'top.ts', isDirectory: false, isSymlink: false, size: 3, modifiedMs: 1_700_000_000_000 });
    expect(await ws.stat('./src//nested/')).toMatchObject({ path: 'src/nested', isDirectory: true, size: null });
    expect(await ws.stat('.')).toMatchObject({ path: '.', isDirectory: true });
  });

  it('returns null for a missing path, also below a file or a missing folder', async () => {
    expect(await ws.stat('nope.ts')).toBeNull();
    expect(await ws.stat('nope/deeper.ts')).toBeNull();
    expect(await ws.stat('top.ts/below')).toBeNull();
  });

  it('follows a link inside the root and says so', async () => {
    symlinkSync('src/b.ts', join(box.root, 'link.ts'));
    symlinkSync('nested', join(box.root, 'src', 'dirlink'));
    expect(await ws.stat('link.ts')).toMatchObject({ path: 'link.ts', isSymlink: true, isDirectory: false, size: 2 });
    expect(await ws.stat('src/dirlink')).toMatchObject({ path: 'src/dirlink', isSymlink: true, isDirectory: true });
    expect(await ws.stat('src/dirlink/c.ts')).toMatchObject({ path: 'src/dirlink/c.ts', isSymlink: false, size: 3 });
  });

  it('returns null for a dangling link that points inside the root', async () => {
    symlinkSync('not-yet.ts', join(box.root, 'dangling'));
    expect(await ws.stat('dangling')).toBeNull();
  });
});

describe('glob', () => {
  it('matches through the glob library, sorted by path, hidden names only on request', async () => {
    expect((await ws.glob('**/*.ts')).map((e) => e.path)).toEqual(['src/a.ts', 'src/b.ts', 'src/nested/c.ts', 'top.ts']);
    expect((await ws.glob('**/*.ts', { dot: true })).map((e) => e.path)).toContain('.hidden/h.ts');
    expect((await ws.glob('src/{a,b}.ts')).map((e) => e.path)).toEqual(['src/a.ts', 'src/b.ts']);
    expect((await ws.glob('src/?.ts')).map((e) => e.path)).toEqual(['src/a.ts', 'src/b.ts']);
    expect(await ws.glob('**/*.py')).toEqual([]);
  });

  it('returns entries with sizes and directories as directories', async () => {
    const entries = await ws.glob('src/*');
    expect(entries.map((e) => e.path)).toEqual(['src/a.ts', 'src/b.ts', 'src/nested', 'src/readme.md']);
    expect(entries[0]).toMatchObject({ isDirectory: false, isSymlink: false, size: 1 });
    expect(entries[2]).toMatchObject({ isDirectory: true, size: null });
  });

  it('neither lists nor follows links', async () => {
    symlinkSync('src', join(box.root, 'srclink'));
    symlinkSync('top.ts', join(box.root, 'toplink.ts'));
    expect((await ws.glob('**/*.ts')).map((e) => e.path)).toEqual(['src/a.ts', 'src/b.ts', 'src/nested/c.ts', 'top.ts']);
  });

  it('follows a link to a folder inside the root when the pattern names it', async () => {
    symlinkSync('src/nested', join(box.root, 'alias'));
    expect((await ws.glob('alias/*.ts')).map((e) => e.path)).toEqual(['alias/c.ts']);
  });

  it('ignores `.` as a match and normalises `./` prefixes', async () => {
    expect(await ws.glob('.')).toEqual([]);
    expect((await ws.glob('./src/a.ts')).map((e) => e.path)).toEqual(['src/a.ts']);
  });

  it('describes many matches across folders (several batches between yields)', async () => {
    for (let d = 0; d < 3; d++) for (let i = 0; i < 300; i++) box.put(`root/spread/d${d}/f${i}.txt`, 'x');
    const entries = await ws.glob('spread/**/*.txt');
    expect(entries).toHaveLength(900);
    expect(entries.every((e) => e.size === 1 && !e.isDirectory)).toBe(true);
  });

  it('handles many matches in one folder (more than one batch of descriptions)', async () => {
    mkdirSync(join(box.root, 'many'));
    for (let i = 0; i < 1100; i++) box.put(`root/many/f${String(i).padStart(4, '0')}.txt`, 'x');
    const entries = await ws.glob('many/*.txt');
    expect(entries).toHaveLength(1100);
    expect(entries[0]!.path).toBe('many/f0000.txt');
    expect(entries[1099]!.path).toBe('many/f1099.txt');
  });
});
