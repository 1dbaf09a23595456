import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PathResolutionError, resolveRealPath } from '../../lib/fs/resolve-real-path';

describe('resolveRealPath', () => {
  let top: string;
  beforeEach(() => {
    top = realpathSync(mkdtempSync(join(tmpdir(), 'resolve-')));
    mkdirSync(join(top, 'wd'));
    mkdirSync(join(top, 'secret/inner'), { recursive: true });
    writeFileSync(join(top, 'secret/key.txt'), 'k');
    writeFileSync(join(top, 'wd/file'), 'f');
    symlinkSync(join(top, 'secret/inner'), join(top, 'wd/link'));
  });
  afterEach(() => rmSync(top, { recursive: true, force: true }));

  it('applies .. after the link, from the folder actually reached', () => {
    expect(resolveRealPath(`${top}/wd/link/../key.txt`)).toBe(join(top, 'secret/key.txt'));
    expect(resolveRealPath('link/../key.txt', join(top, 'wd'))).toBe(join(top, 'secret/key.txt'));
  });

  it('follows relative and chained links', () => {
    symlinkSync('link', join(top, 'wd/link2'));
    symlinkSync('../secret', join(top, 'wd/rel'));
    expect(resolveRealPath(`${top}/wd/link2/../key.txt`)).toBe(join(top, 'secret/key.txt'));
    expect(resolveRealPath(join(top, 'wd/rel/key.txt'))).toBe(join(top, 'secret/key.txt'));
  });

  it('keeps a missing tail on top of the deepest existing folder', () => {
    expect(resolveRealPath(join(top, 'wd/link/new/deeper.txt'))).toBe(join(top, 'secret/inner/new/deeper.txt'));
    expect(resolveRealPath(`${top}/wd/new/../x`)).toBe(join(top, 'wd/x'));
  });

  it('fails closed on loops, non-folders and NUL bytes', () => {
    symlinkSync('loop-b', join(top, 'wd/loop-a'));
    symlinkSync('loop-a', join(top, 'wd/loop-b'));
    expect(() => resolveRealPath(join(top, 'wd/loop-a/x'))).toThrow(PathResolutionError);
    expect(() => resolveRealPath(join(top, 'wd/file/x'))).toThrow(/not a folder/);
    expect(() => resolveRealPath(`${top}/wd/file/..`)).toThrow(/not a folder/);
    expect(() => resolveRealPath('a\0b')).toThrow(/NUL/);
  });

  it('resolves the root and .. above the root to the root', () => {
    expect(resolveRealPath('/')).toBe('/');
    expect(resolveRealPath('/../..')).toBe('/');
  });
});
