import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { LocalWorkspace, PathOutsideWorkspaceError, type Workspace } from '../../lib/workspace';
import { makeSandbox, type Sandbox } from './fixtures';

let box: Sandbox;
let ws: LocalWorkspace;

beforeEach(() => {
  box = makeSandbox();
  ws = new LocalWorkspace(box.root);
  box.put('root/inside.txt', 'inside');
});
afterEach(() => box.cleanup());

const OUTSIDE = { code: 'PATH_OUTSIDE_WORKSPACE' };

/** Every operation of the port on one path; each must be refused with `expected`. */
function everyOperation(w: Workspace, path: string): Array<[string, () => Promise<unknown>]> {
  return [
    ['readFile', () => w.readFile(path)],
    ['readBytes', () => w.readBytes(path)],
    ['writeFile', () => w.writeFile(path, 'pwned')],
    ['writeBytes', () => w.writeBytes(path, new Uint8Array([1]))],
    ['editFile', () => w.editFile(path, 'secret', 'pwned')],
    ['listDir', () => w.listDir(path)],
    ['stat', () => w.stat(path)],
  ];
}

async function expectAllRefused(path: string, expected: object = OUTSIDE): Promise<void> {
  for (const [name, run] of everyOperation(ws, path)) {
    await expect(run().then(() => `${name} succeeded`)).rejects.toMatchObject(expected);
  }
  expect(readFileSync(join(box.outside, 'secret.txt'), 'utf8')).toBe('top secret');
  expect(readdirSync(box.outside)).toEqual(['secret.txt']);
}

describe('paths that climb out or are absolute', () => {
  it.each([
    '../outside/secret.txt',
    'a/../../outside/secret.txt',
    './../outside/secret.txt',
    '..',
    'inside.txt/../../outside/secret.txt',
  ])('refuses %s for every operation, with the path-outside error', async (path) => {
    await expectAllRefused(path);
  });

  it('accepts `..` that stays inside the root', async () => {
    expect(await ws.readFile('a/b/../../inside.txt')).toBe('inside');
  });

  it('refuses absolute paths outside the root, /etc/passwd and the outside folder', async () => {
    await expectAllRefused('/etc/passwd');
    await expectAllRefused(join(box.outside, 'secret.txt'));
  });

  it('refuses a sibling folder whose name starts with the root name (root-evil)', async () => {
    box.put('root-evil/x.txt', 'evil');
    await expectAllRefused(`${box.root}-evil/x.txt`);
    symlinkSync(`${box.root}-evil`, join(box.root, 'evil'));
    await expectAllRefused('evil/x.txt');
  });

  it('explains what was refused and how to fix it', async () => {
    const error = await ws.readFile('../outside/secret.txt').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PathOutsideWorkspaceError);
    expect((error as Error).message).toMatch(/Refused '..\/outside\/secret.txt': its '\.\.' segments climb above the root\. Use a path inside/);
  });
});

describe('NUL bytes and non-strings', () => {
  it.each(['a\0b', 'inside.txt\0', '\0'])('refuses %j with a validation error for every operation', async (path) => {
    await expectAllRefused(path, { code: 'INVALID_PATH', message: expect.stringContaining('NUL') });
    await expect(ws.glob(`**/${path}`)).rejects.toMatchObject({ code: 'INVALID_PATH' });
  });

  it('refuses a path that is not a string', async () => {
    await expect(ws.readFile(42 as unknown as string)).rejects.toMatchObject({ code: 'INVALID_PATH', message: expect.stringContaining('number') });
    await expect(ws.stat(null as unknown as string)).rejects.toMatchObject({ code: 'INVALID_PATH', message: expect.stringContaining('null') });
    await expect(ws.glob(undefined as unknown as string)).rejects.toMatchObject({ code: 'INVALID_PATH' });
  });
});

describe('symbolic links inside the root that point outside', () => {
  it('refuses a link to an outside file for every operation, and writes nothing through it', async () => {
    symlinkSync(join(box.outside, 'secret.txt'), join(box.root, 'abs-link'));
    symlinkSync('../outside/secret.txt', join(box.root, 'rel-link'));
    await expectAllRefused('abs-link');
    await expectAllRefused('rel-link');
    const error = (await ws.readFile('abs-link').catch((e: unknown) => e)) as Error;
    expect(error.message).toContain("the symbolic link 'abs-link' points to");
  });

  it('refuses a link to an outside folder, and paths through it', async () => {
    symlinkSync(box.outside, join(box.root, 'out-dir'));
    await expectAllRefused('out-dir');
    await expectAllRefused('out-dir/secret.txt');
    await expectAllRefused('out-dir/new/deeper.txt');
  });

  it('refuses a link to the root\'s parent and to `/`', async () => {
    symlinkSync('..', join(box.root, 'up'));
    symlinkSync('/', join(box.root, 'slash'));
    await expectAllRefused('up/outside/secret.txt');
    await expectAllRefused('slash/etc/passwd');
    await expect(ws.listDir('up')).rejects.toMatchObject(OUTSIDE);
  });

  it('refuses dangling links that point outside, and does not create their targets', async () => {
    symlinkSync(join(box.outside, 'new.txt'), join(box.root, 'dangling-file'));
    symlinkSync('../outside/new-dir', join(box.root, 'dangling-dir'));
    await expectAllRefused('dangling-file');
    await expectAllRefused('dangling-dir/file.txt');
    await expectAllRefused('dangling-dir/a/b/file.txt');
    expect(existsSync(join(box.outside, 'new.txt'))).toBe(false);
    expect(existsSync(join(box.outside, 'new-dir'))).toBe(false);
  });

  it('refuses a chain of inside links that ends outside', async () => {
    symlinkSync('second', join(box.root, 'first'));
    symlinkSync('third', join(box.root, 'second'));
    symlinkSync('../outside', join(box.root, 'third'));
    await expectAllRefused('first/secret.txt');
  });

  it('refuses links created by the agent through a shell', async () => {
    execFileSync('/bin/sh', ['-c', 'ln -s ../outside shell-link && mkdir -p sub && ln -s ../../outside/secret.txt sub/s'], { cwd: box.root });
    await expectAllRefused('shell-link/secret.txt');
    await expectAllRefused('sub/s');
  });

  it('refuses a symbolic link loop with a validation error', async () => {
    symlinkSync('loop-b', join(box.root, 'loop-a'));
    symlinkSync('loop-a', join(box.root, 'loop-b'));
    await expect(ws.readFile('loop-a')).rejects.toMatchObject({ code: 'INVALID_PATH', message: expect.stringContaining('symbolic links') });
    await expect(ws.writeFile('loop-a', 'x')).rejects.toMatchObject({ code: 'INVALID_PATH' });
    await expect(ws.readFile('loop-a/x')).rejects.toMatchObject({ code: 'INVALID_PATH' });
  });
});

describe('symbolic links that stay inside the root', () => {
  it('reads, writes and edits through them, keeping the link', async () => {
    mkdirSync(join(box.root, 'real'));
    symlinkSync('real', join(box.root, 'dir-link'));
    symlinkSync('inside.txt', join(box.root, 'file-link'));
    symlinkSync(join(box.root, 'inside.txt'), join(box.root, 'abs-file-link'));
    expect(await ws.readFile('file-link')).toBe('inside');
    expect(await ws.readFile('abs-file-link')).toBe('inside');
    await ws.writeFile('file-link', 'changed');
    expect(readFileSync(join(box.root, 'inside.txt'), 'utf8')).toBe('changed');
    expect(await ws.editFile('file-link', 'changed', 'edited')).toBe(1);
    expect(readFileSync(join(box.root, 'inside.txt'), 'utf8')).toBe('edited');
    await ws.writeFile('dir-link/new.txt', 'n');
    expect(readFileSync(join(box.root, 'real/new.txt'), 'utf8')).toBe('n');
  });

  it('writes through a dangling link that points inside, creating its target', async () => {
    symlinkSync('later/target.txt', join(box.root, 'pending'));
    await ws.writeFile('pending', 'created');
    expect(readFileSync(join(box.root, 'later/target.txt'), 'utf8')).toBe('created');
  });

  it('follows a link to the root itself', async () => {
    symlinkSync('.', join(box.root, 'self'));
    expect(await ws.readFile('self/inside.txt')).toBe('inside');
    expect(await ws.stat('self')).toMatchObject({ path: 'self', isDirectory: true, isSymlink: true });
  });
});

describe('glob confinement', () => {
  it.each(['/etc/*', '/**', '\\etc/*', 'C:/x/*', '../outside/*', 'src/../../outside/*', '\\.\\./outside/*', '{..,src}/*', '**/..', '..'])(
    'refuses the pattern %s', async (pattern) => {
      await expect(ws.glob(pattern)).rejects.toMatchObject(OUTSIDE);
    });

  it('refuses matches reached through a link to an outside folder named in the pattern', async () => {
    symlinkSync(box.outside, join(box.root, 'out-dir'));
    await expect(ws.glob('out-dir/*')).rejects.toMatchObject(OUTSIDE);
    await expect(ws.glob('out-dir/*.txt')).rejects.toMatchObject(OUTSIDE);
  });

  it('never lists what lies behind links, whatever the pattern', async () => {
    symlinkSync(box.outside, join(box.root, 'out-dir'));
    symlinkSync(join(box.outside, 'secret.txt'), join(box.root, 'secret-link.txt'));
    const paths = (await ws.glob('**', { dot: true })).map((e) => e.path);
    expect(paths).toEqual(['inside.txt']);
  });

  it('accepts `..` inside a name, which climbs nowhere', async () => {
    box.put('root/a..b.txt', '');
    expect((await ws.glob('a..b.*')).map((e) => e.path)).toEqual(['a..b.txt']);
  });
});
