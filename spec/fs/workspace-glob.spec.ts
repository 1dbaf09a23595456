// Workspace globs: the grammar, and a matching cost that grows linearly with the path (steps counted, no clock).
import { compileWorkspaceGlob, MAX_GLOB_ALTERNATIVES, type GlobStepCounter, type WorkspaceGlob } from '../../lib/fs/workspace-glob';
import { LocalWorkspace } from '../../lib/workspace';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function glob(pattern: string, dot = false): WorkspaceGlob {
  const compiled = compileWorkspaceGlob(pattern, { dot });
  if ('refused' in compiled) throw new Error(compiled.refused);
  return compiled;
}

describe('grammar', () => {
  it.each([
    ['*.ts', 'a.ts', true], ['*.ts', 'src/a.ts', false], ['**/*.ts', 'a.ts', true], ['**/*.ts', 'a/b/c.ts', true],
    ['src/**', 'src/a/b', true], ['src/**/x', 'src/x', true], ['a/*/b', 'a/b', false], ['?.md', 'ab.md', false],
    ['[a-c]x', 'bx', true], ['[!a-c]x', 'bx', false], ['[^a]x', 'zx', true], ['[a-', '[a-', true], ['\\*', '*', true],
    ['\\*', 'x', false], ['{a,b}/*.{ts,js}', 'b/c.js', true], ['a{b,c{d,e}}f', 'acef', true], ['{a}', '{a}', true],
    ['{a,b', '{a,b', true], ['a\\{b,c}', 'a{b,c}', true], ['@(a|b)', '@(a|b)', true], ['!x', '!x', true],
    ['./a//b', 'a/b', true], ['***/x', 'q/r/x', true], ['a**b', 'axxb', true], ['a**b', 'ax/xb', false],
    ['*', '.env', false], ['.*', '.env', true], ['**/x', '.git/x', false], ['.git/**', '.git/hooks/x', true], ['?env', '.env', false],
    ['[.]env', '.env', false], ['é*', 'été', true], ['*', 'a/', true],
    // A file name may hold a line break: a star and a question mark match it as any other character.
    ['*', 'new\nline', true], ['*', 'ends\n', true], ['a?b', 'a\nb', true], ['x*', 'x\r\n', true],
  ] as const)('%s against %s: %s', (pattern, path, expected) => {
    expect(glob(pattern).matches(path)).toBe(expected);
    // With a step counter every name goes through the automaton: both ways agree.
    expect(glob(pattern).matches(path, { steps: 0 })).toBe(expected);
  });

  it('with dot, stars and globstars match hidden names', () => {
    expect(glob('*', true).matches('.env')).toBe(true);
    expect(glob('**/x', true).matches('.git/x')).toBe(true);
    expect(glob('?env', true).matches('.env')).toBe(true);
  });

  it('gives the literal folder a walk starts in, and how deep it goes', () => {
    expect([glob('src/lib/*.ts').base, glob('src/lib/*.ts').depth]).toEqual(['src/lib', 1]);
    expect([glob('src/**/*.ts').base, glob('src/**/*.ts').depth]).toEqual(['src', Infinity]);
    expect([glob('{src,lib}/a').base, glob('{src,lib}/a').depth]).toEqual(['', 2]);
    expect([glob('src/{a,b}/c').base, glob('src/{a,b}/c').depth]).toEqual(['src', 2]);
    expect(glob('a/b').base).toBe('a');
    expect(glob('docs/').directoriesOnly).toBe(true);
    expect(glob('docs').directoriesOnly).toBe(false);
  });

  it(`refuses braces that expand past ${MAX_GLOB_ALTERNATIVES} alternatives or too many characters, saying what to do`, () => {
    expect(compileWorkspaceGlob('{a,b}'.repeat(9))).toEqual({ refused: expect.stringContaining('more than 256 alternatives') });
    expect(compileWorkspaceGlob(`{${'x'.repeat(70_000)},y}`)).toEqual({ refused: expect.stringContaining('characters') });
    expect('refused' in compileWorkspaceGlob('{a,b}'.repeat(8))).toBe(false);
  });

  it('a refused pattern is an INVALID_ARGUMENT error of the workspace', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'ws-glob-')));
    try {
      writeFileSync(join(dir, 'a'), '');
      await expect(new LocalWorkspace(dir).glob('{a,b}'.repeat(9))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      const aborted = AbortSignal.abort(new Error('stop'));
      await expect(new LocalWorkspace(dir).glob('*', { signal: aborted })).rejects.toThrow('stop');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('matching never backtracks: its steps grow linearly with the path', () => {
  const steps = (pattern: string, path: string): number => {
    const counter: GlobStepCounter = { steps: 0 };
    expect(glob(pattern).matches(path, counter)).toBe(false);
    return counter.steps;
  };

  it.each([
    ['*a*a*a*a*a*a*a*a*b', (n: number) => 'a'.repeat(n)],
    ['**/a/**/a/**/a/**/a/**/b', (n: number) => 'a/'.repeat(n) + 'c'],
    ['**/*a*a*a*b/**/*a*a*c', (n: number) => `${'a'.repeat(n)}/${'a'.repeat(n)}/d`],
    ['?*?*?*?*?*x', (n: number) => 'b'.repeat(n)],
    ['[a-z]*[a-z]*[a-z]*[a-z]*9', (n: number) => 'a'.repeat(n)],
    ['{*a*a*a*c,*b*b*b*c}', (n: number) => 'ab'.repeat(n)],
  ])('%s', (pattern, path) => {
    const small = steps(pattern, path(60));
    const large = steps(pattern, path(6000));
    // A hundred times the path costs at most a hundred times (and a bit) the steps; a backtracking matcher grows
    // with a power of the length.
    expect(large).toBeLessThanOrEqual(small * 110);
    expect(small).toBeLessThanOrEqual((pattern.length + 2) * (path(60).length + 2) * 2);
  });

  it('the 60-character near miss that took picomatch 40 s costs about a thousand steps', () => {
    expect(steps('*a*a*a*a*a*a*a*a*b', 'a'.repeat(60))).toBeLessThan(2000);
  });
});
