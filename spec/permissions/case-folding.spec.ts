import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isInsideWorkingDirectories } from '../../lib/permissions';
import { foldsCase } from '../../lib/permissions/case-folding';
import { file, scratch } from './fixtures';

describe('foldsCase on a case-sensitive file system', () => {
  const base = scratch('fold');

  it('finds nothing to fold for names without letters, empty folders and letterless folders', () => {
    file(join(base, '123', '456'));
    expect(foldsCase(join(base, '123', '456'))).toBe(false);
    mkdirSync(join(base, 'empty'));
    expect(foldsCase(join(base, 'empty', 'new'))).toBe(false);
    mkdirSync(join(base, '7'));
    for (let i = 0; i < 40; i++) file(join(base, '7', String(i)));
    file(join(base, '7', 'zz'));
    expect(foldsCase(join(base, '7', '99'))).toBe(false);
    expect(foldsCase('/')).toBe(false);
  });

  it('two folders that differ only by case are two folders', () => {
    file(join(base, 'Both', 'x'));
    file(join(base, 'bOTH', 'x'));
    expect(foldsCase(join(base, 'Both', 'x'))).toBe(false);
  });

  it('fails closed (folds) when a component cannot be examined', () => {
    expect(foldsCase(join(base, 'n'.repeat(300), 'x'))).toBe(true);
    const odd = join(base, 'odd');
    file(join(odd, 'a'));
    symlinkSync('n'.repeat(300), join(odd, 'b'));
    expect(foldsCase(join(odd, 'new'))).toBe(false);
  });

  it('a working directory that cannot be resolved contains nothing', () => {
    symlinkSync('loop', join(base, 'loop'));
    expect(isInsideWorkingDirectories('/tmp', [join(base, 'loop')], { cwd: '/' })).toBe(false);
    expect(isInsideWorkingDirectories(join(base, 'x'), [join(base, 'loop'), base], { cwd: '/' })).toBe(true);
  });
});
