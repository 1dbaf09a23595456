import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MAX_FILE_SIZE, LocalWorkspace, type Workspace } from '../../lib/workspace';
import { makeSandbox, type Sandbox } from './fixtures';

let box: Sandbox;
let ws: LocalWorkspace;

beforeEach(() => {
  box = makeSandbox();
  ws = new LocalWorkspace(box.root);
});
afterEach(() => box.cleanup());

describe('LocalWorkspace construction', () => {
  it('creates a missing root with its parents and exposes its real path', () => {
    const created = new LocalWorkspace(join(box.base, 'a', 'b'));
    expect(statSync(join(box.base, 'a', 'b')).isDirectory()).toBe(true);
    expect(created.root).toBe(join(box.base, 'a', 'b'));
    expect(created.maxFileSize).toBe(DEFAULT_MAX_FILE_SIZE);
    expect(DEFAULT_MAX_FILE_SIZE).toBe(10 * 1024 * 1024);
  });

  it('resolves a root given through a link to its real path', () => {
    symlinkSync(box.root, join(box.base, 'alias'));
    expect(new LocalWorkspace(join(box.base, 'alias')).root).toBe(box.root);
  });

  it('refuses a root that is a file, and a bad size limit or root', () => {
    const file = box.put('file.txt');
    expect(() => new LocalWorkspace(file)).toThrow(expect.objectContaining({ code: 'NOT_A_DIRECTORY' }));
    expect(() => new LocalWorkspace(box.root, { maxFileSize: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => new LocalWorkspace(box.root, { maxFileSize: 1.5 })).toThrow(/positive integer/);
    expect(() => new LocalWorkspace('')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => new LocalWorkspace('a\0b')).toThrow(/NUL/);
  });

  it('is usable through the port type alone', async () => {
    const port: Workspace = ws;
    await port.writeFile('x.txt', 'via port');
    expect(await port.readFile('x.txt')).toBe('via port');
  });
});

describe('reading and writing', () => {
  it('round-trips text exactly, CRLF, BOM and non-ASCII included', async () => {
    const text = '\uFEFFline 1\r\nlíne 2 ✓\n';
    await ws.writeFile('a.txt', text);
    expect(await ws.readFile('a.txt')).toBe(text);
    expect(readFileSync(join(box.root, 'a.txt'), 'utf8')).toBe(text);
  });

  it('round-trips bytes, and refuses to read non-UTF-8 as text', async () => {
    const bytes = new Uint8Array([0, 255, 254, 10, 0x80]);
    await ws.writeBytes('bin/blob.dat', bytes);
    expect(Buffer.from(await ws.readBytes('bin/blob.dat'))).toEqual(Buffer.from(bytes));
    await expect(ws.readFile('bin/blob.dat')).rejects.toMatchObject({ code: 'NOT_TEXT', message: expect.stringContaining('readBytes') });
  });

  it('creates missing parent folders on write', async () => {
    await ws.writeFile('deep/er/still/file.ts', 'x');
    expect(readFileSync(join(box.root, 'deep/er/still/file.ts'), 'utf8')).toBe('x');
  });

  it('replaces a file atomically, keeps its mode and leaves no temporary file', async () => {
    const path = box.put('root/run.sh', 'old');
    chmodSync(path, 0o750);
    await ws.writeFile('run.sh', 'new');
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(statSync(path).mode & 0o777).toBe(0o750);
    expect(readdirSync(box.root)).toEqual(['run.sh']);
  });

  it('gives a new file the default mode (0o666 minus the umask)', async () => {
    await ws.writeFile('new.txt', '');
    expect(statSync(join(box.root, 'new.txt')).mode & 0o777).toBe(0o666 & ~process.umask());
  });

  it('refuses to overwrite when overwrite is false, atomically, and creates when absent', async () => {
    box.put('root/keep.txt', 'original');
    await expect(ws.writeFile('keep.txt', 'other', { overwrite: false })).rejects.toMatchObject({ code: 'ALREADY_EXISTS' });
    expect(readFileSync(join(box.root, 'keep.txt'), 'utf8')).toBe('original');
    await ws.writeFile('fresh.txt', 'made', { overwrite: false });
    expect(readFileSync(join(box.root, 'fresh.txt'), 'utf8')).toBe('made');
    expect(readdirSync(box.root).sort()).toEqual(['fresh.txt', 'keep.txt']);
  });

  it('reports missing files, directories and non-files clearly', async () => {
    mkdirSync(join(box.root, 'dir'));
    box.put('root/file.txt', 'x');
    await expect(ws.readFile('nope.txt')).rejects.toMatchObject({ code: 'NOT_FOUND', path: 'nope.txt' });
    await expect(ws.readFile('missing/nope.txt')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(ws.readFile('dir')).rejects.toMatchObject({ code: 'NOT_A_FILE', message: expect.stringContaining('listDir') });
    await expect(ws.readFile('.')).rejects.toMatchObject({ code: 'NOT_A_FILE' });
    await expect(ws.writeFile('dir', 'x')).rejects.toMatchObject({ code: 'NOT_A_FILE' });
    await expect(ws.writeFile('', 'x')).rejects.toMatchObject({ code: 'NOT_A_FILE' });
    await expect(ws.readFile('file.txt/inner')).rejects.toMatchObject({ code: 'NOT_A_DIRECTORY' });
    await expect(ws.writeFile('file.txt/inner', 'x')).rejects.toMatchObject({ code: 'NOT_A_DIRECTORY' });
    await expect(ws.writeFile('file.txt/a/b', 'x')).rejects.toMatchObject({ code: 'NOT_A_DIRECTORY' });
  });

  it('refuses wrong content types with a clear message', async () => {
    await expect(ws.writeFile('a.txt', Buffer.from('x') as unknown as string)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(ws.writeBytes('a.txt', 'x' as unknown as Uint8Array)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(existsSync(join(box.root, 'a.txt'))).toBe(false);
  });

  it('accepts an absolute path inside the root, in its real or configured spelling', async () => {
    symlinkSync(box.root, join(box.base, 'alias'));
    const viaAlias = new LocalWorkspace(join(box.base, 'alias'));
    await viaAlias.writeFile(join(box.base, 'alias', 'abs.txt'), 'one');
    expect(await viaAlias.readFile(join(box.root, 'abs.txt'))).toBe('one');
  });
});

describe('the size limit', () => {
  it('refuses to read or write a file over the limit, and accepts one at the limit', async () => {
    const small = new LocalWorkspace(box.root, { maxFileSize: 8 });
    box.put('root/big.txt', '123456789');
    box.put('root/ok.txt', '12345678');
    await expect(small.readFile('big.txt')).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', size: 9, limit: 8 });
    await expect(small.readBytes('big.txt')).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(await small.readFile('ok.txt')).toBe('12345678');
    await expect(small.writeFile('w.txt', '123456789')).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', size: 9 });
    await expect(small.writeBytes('w.txt', new Uint8Array(9))).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(existsSync(join(box.root, 'w.txt'))).toBe(false);
  });

  it('counts bytes, not characters', async () => {
    const small = new LocalWorkspace(box.root, { maxFileSize: 3 });
    await expect(small.writeFile('u.txt', 'éé')).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', size: 4 });
  });

  it('refuses an edit whose result would be over the limit, leaving the file as it was', async () => {
    const small = new LocalWorkspace(box.root, { maxFileSize: 8 });
    box.put('root/e.txt', 'abc');
    await expect(small.editFile('e.txt', 'b', 'bbbbbbbb')).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(readFileSync(join(box.root, 'e.txt'), 'utf8')).toBe('abc');
  });
});

describe('editFile', () => {
  beforeEach(() => {
    box.put('root/code.ts', 'let a = 1;\nlet b = 1;\n');
  });

  it('replaces a unique occurrence and returns 1', async () => {
    expect(await ws.editFile('code.ts', 'let a', 'const a')).toBe(1);
    expect(readFileSync(join(box.root, 'code.ts'), 'utf8')).toBe('const a = 1;\nlet b = 1;\n');
  });

  it('refuses several occurrences without replaceAll, saying how many', async () => {
    await expect(ws.editFile('code.ts', '= 1', '= 2')).rejects.toMatchObject({ code: 'AMBIGUOUS_MATCH', count: 2, message: expect.stringContaining('2 times') });
    expect(readFileSync(join(box.root, 'code.ts'), 'utf8')).toBe('let a = 1;\nlet b = 1;\n');
  });

  it('replaces every occurrence with replaceAll and returns the count', async () => {
    expect(await ws.editFile('code.ts', '= 1', '= 2', { replaceAll: true })).toBe(2);
    expect(readFileSync(join(box.root, 'code.ts'), 'utf8')).toBe('let a = 2;\nlet b = 2;\n');
  });

  it('inserts the new text literally ($& and $1 are not patterns)', async () => {
    await ws.editFile('code.ts', 'let a', '$& $1 $$');
    expect(readFileSync(join(box.root, 'code.ts'), 'utf8')).toBe('$& $1 $$ = 1;\nlet b = 1;\n');
  });

  it('refuses an empty or missing old text before touching the disk, and text that is not there', async () => {
    await expect(ws.editFile('code.ts', '', 'x')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(ws.editFile('missing.ts', '', 'x')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(ws.editFile('code.ts', 'a', 7 as unknown as string)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(ws.editFile('code.ts', 'zzz', 'x')).rejects.toMatchObject({ code: 'TEXT_NOT_FOUND' });
  });

  it('reports missing files, the root and binary files', async () => {
    await expect(ws.editFile('missing.ts', 'a', 'b')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(ws.editFile('.', 'a', 'b')).rejects.toMatchObject({ code: 'NOT_A_FILE' });
    writeFileSync(join(box.root, 'bin'), Buffer.from([0xff, 0x61]));
    await expect(ws.editFile('bin', 'a', 'b')).rejects.toMatchObject({ code: 'NOT_TEXT' });
  });

  it('keeps the mode of the edited file', async () => {
    chmodSync(join(box.root, 'code.ts'), 0o600);
    await ws.editFile('code.ts', 'let a', 'var a');
    expect(statSync(join(box.root, 'code.ts')).mode & 0o777).toBe(0o600);
  });
});
