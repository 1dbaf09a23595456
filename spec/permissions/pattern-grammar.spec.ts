import { mkdirSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  escapePathPattern,
  formatPermissionRule,
  parsePermissionRule,
  pathMatchesRule,
  pathRule,
  PermissionBehavior,
  PermissionConfigError,
  PermissionContext,
  PermissionEngine,
} from '../../lib/permissions';
import { file, scratch, write } from './fixtures';

const { ALLOW, ASK } = PermissionBehavior;
const at = (pattern: string, path: string) => pathMatchesRule(pattern, path, { cwd: '/p', caseInsensitive: false });

describe('rule-pattern grammar: only * ** ? [...] are glob syntax, \\ escapes, everything else is literal', () => {
  it('the demonstrated inputs: Next.js route groups and catch-all segments', () => {
    expect(at('src/app/(auth)/**', 'src/app/(auth)/login/page.tsx')).toBe(true);
    expect(at('src/app/(auth)/**', 'src/app/auth/login/page.tsx')).toBe(false);
    expect(at('src/app/\\[\\[...slug\\]\\]/page.tsx', 'src/app/[[...slug]]/page.tsx')).toBe(true);
    expect(at('src/app/\\[\\[...slug\\]\\]/page.tsx', 'src/app/s/page.tsx')).toBe(false);
  });

  it.each([
    // literal characters that other glob dialects give a meaning
    ['{a,b}.ts', '/p/{a,b}.ts', true],
    ['{a,b}.ts', '/p/a.ts', false],
    ['!x', '/p/!x', true],
    ['!x', '/p/y', false],
    ['@(a)', '/p/@(a)', true],
    ['@(a)', '/p/a', false],
    ['+(a)', '/p/+(a)', true],
    ['+(a)', '/p/aa', false],
    ['*(a)', '/p/x(a)', true],
    ['*(a)', '/p/aaa', false],
    ['?(a)', '/p/x(a)', true],
    ['?(a)', '/p/a', false],
    ['(a|b)', '/p/(a|b)', true],
    ['(a|b)', '/p/a', false],
    ['a+b', '/p/a+b', true],
    ['a+b', '/p/aab', false],
    ['a.b', '/p/axb', false],
    ['$x^', '/p/$x^', true],
    ['#x', '/p/#x', true],
    ['a b', '/p/a b', true],
    // the glob syntax
    ['*.ts', '/p/src/deep/a.ts', true],
    ['src/*.ts', '/p/src/a.ts', true],
    ['src/*.ts', '/p/src/deep/a.ts', false],
    ['src/**/*.ts', '/p/src/a.ts', true],
    ['src/**/*.ts', '/p/src/x/y/a.ts', true],
    ['src/**', '/p/src', true],
    ['src/?.ts', '/p/src/a.ts', true],
    ['src/?.ts', '/p/src/ab.ts', false],
    ['src/?.ts', '/p/src/🎉.ts', true],
    ['src/[ab].ts', '/p/src/b.ts', true],
    ['src/[ab].ts', '/p/src/c.ts', false],
    ['src/[!ab].ts', '/p/src/c.ts', true],
    ['src/[^ab].ts', '/p/src/a.ts', false],
    ['src/[a-c].ts', '/p/src/b.ts', true],
    ['src/[a-c].ts', '/p/src/d.ts', false],
    ['src/[]].ts', '/p/src/].ts', true],
    ['src/[a\\]].ts', '/p/src/].ts', true],
    ['src/[a-].ts', '/p/src/-.ts', true],
    ['x/[!a]', '/p/x/b/c', true],
    ['a*b', '/p/a/b', false],
    ['a**b', '/p/axxb', true],
    ['a**b', '/p/a/x/b', false],
    ['*', '/p/.env', true],
    ['**', '/p/a/b/.git/config', true],
    ['**', '/elsewhere', false],
    ['/**', '/elsewhere', true],
    // escapes and malformed brackets (literal, as in glob(7))
    ['\\*', '/p/*', true],
    ['\\*', '/p/a', false],
    ['\\?', '/p/a', false],
    ['\\[a]', '/p/[a]', true],
    ['[a', '/p/[a', true],
    ['a[/]b', '/p/a[/]b', true],
    ['a\\', '/p/a\\', true],
    ['a\\b', '/p/ab', true],
    ['a\\/b', '/p/a/b', true],
    ['\\\\x', '/p/\\x', true],
    // segments: `.`, `..` before wildcards, doubled and trailing slashes
    ['./a', '/p/a', true],
    ['./a', '/p/b/a', false],
    ['a/./b', '/p/a/b', true],
    ['../q/**', '/q/x', true],
    ['x/../a', '/p/a', true],
    ['a//b', '/p/a/b', true],
    ['a/b/', '/p/a/b/c', true],
    ['/', '/anything/at/all', true],
    ['.', '/p/x', true],
    ['.', '/q/x', false],
  ])('%s covers %s: %s', (pattern, path, expected) => expect(at(pattern, path)).toBe(expected));

  it('refuses leading and trailing blanks unless escaped (a typo in a settings file must not match nothing)', async () => {
    for (const pattern of [' /etc/**', '/etc/** ', '\t.env', '.env\n', 'a\\\\ ']) {
      expect(() => at(pattern, '/p/x')).toThrow(expect.objectContaining({ code: 'INVALID_PERMISSION_RULE', message: expect.stringMatching(/starts or ends with a blank/) }));
    }
    expect(at('a\\ ', '/p/a ')).toBe(true);
    expect(at('\\ a', '/p/ a')).toBe(true);
    expect(at('a b', '/p/a b')).toBe(true);
    expect(escapePathPattern(' a b ')).toBe('\\ a b\\ ');
    const typo = new PermissionEngine({ settings: { deny: ['write( /etc/** )'] } });
    expect((await typo.check(write, { path: '/tmp/x' })).behavior).toBe(PermissionBehavior.DENY);
  });

  it.each([['src/**/../x'], ['*/..'], ['[z-a]'], ['~bob']])('refuses %s with INVALID_PERMISSION_RULE', (pattern) => {
    expect(() => at(pattern, '/p/x')).toThrow(PermissionConfigError);
    expect(() => at(pattern, '/p/x')).toThrow(expect.objectContaining({ code: 'INVALID_PERMISSION_RULE' }));
  });

  it('a cwd with glob characters in its name is literal', () => {
    expect(pathMatchesRule('src/**', '/w/a [b] (c) {d} *e/src/x', { cwd: '/w/a [b] (c) {d} *e' })).toBe(true);
    expect(pathMatchesRule('src/**', '/w/a b (c) {d} xe/src/x', { cwd: '/w/a [b] (c) {d} *e' })).toBe(false);
  });

  it('escapePathPattern escapes exactly the glob characters and a leading tilde', () => {
    expect(escapePathPattern('src/app/[[...slug]]/page.tsx')).toBe('src/app/\\[\\[...slug\\]\\]/page.tsx');
    expect(escapePathPattern('(a){b}!c@d+e')).toBe('(a){b}!c@d+e');
    expect(escapePathPattern('a*b?c\\d')).toBe('a\\*b\\?c\\\\d');
    expect(escapePathPattern('~x/~y')).toBe('\\~x/~y');
  });
});

/** File names that are hard on glob matchers and rule strings. */
const AWKWARD = [
  '(auth)',
  '[[...slug]]',
  '[id]',
  '{a,b}',
  '*',
  '**',
  '?',
  '!x',
  '@x',
  '+x',
  '@(x)',
  '!(x)',
  'a\\b',
  'back\\',
  '\\',
  'with space',
  ' lead',
  'trail ',
  '   ',
  '日本語',
  '🎉 party',
  'e\u0301',
  '~tilde',
  '~',
  '.hidden',
  '..dots',
  '-dash',
  'a)b(',
  ')',
  '(',
  'a]b[',
  '[',
  ']',
  '$HOME',
  '#hash',
  'semi;colon',
  'quote"s\'',
  'new\nline',
  'tab\tname',
  'x:*',
  'a,b',
  '%20',
];

describe('a suggestion always allows the call it was made for', () => {
  const base = scratch('suggest');
  const wd = join(base, 'w [1] (x) {y} *z');
  const outside = join(base, 'out (side) [2]');
  mkdirSync(wd, { recursive: true });
  mkdirSync(outside, { recursive: true });

  /** Checks that `path` asks, and that its first suggestion, round-tripped through the rule string, allows it. */
  async function suggestionAllows(path: string): Promise<string> {
    const engine = new PermissionEngine({ cwd: wd });
    const asked = await engine.check(write, { path });
    expect([path, asked.behavior]).toEqual([path, ASK]);
    if (/^~[A-Za-z_]*(?:\/|$)/.test(path)) {
      // two readings (a folder named '~...', a home directory) that no one rule covers: nothing to suggest
      expect(asked.suggestions).toEqual([]);
      return '';
    }
    expect(asked.suggestions.length).toBeGreaterThan(0);
    const text = formatPermissionRule(asked.suggestions[0]!);
    const rule = parsePermissionRule(text, ALLOW, 'session');
    expect(formatPermissionRule(rule)).toBe(text);
    engine.addRules([rule]);
    const allowed = await engine.check(write, { path });
    expect([path, text, allowed.behavior]).toEqual([path, text, ALLOW]);
    return text;
  }

  it.each(AWKWARD)('for a file named %j in the cwd, in a subfolder, in a folder of that name and outside', async (name) => {
    const inCwd = file(join(wd, name));
    const inSub = file(join(wd, 'src', 'app', name));
    const inFolder = file(join(wd, 'src', name, 'page.tsx'));
    const out = file(join(outside, name, 'x'));
    for (const path of [inCwd, relative(wd, inCwd), inSub, relative(wd, inSub), inFolder, relative(wd, inFolder), out, join(wd, 'new', name)]) {
      await suggestionAllows(path);
    }
  });

  it('the suggestion for a file in the cwd names that file only; for a subfolder, that folder', async () => {
    file(join(wd, 'a.txt'));
    expect(await suggestionAllows('a.txt')).toBe('write(./a.txt)');
    const engine = new PermissionEngine({ cwd: wd, settings: { allow: ['write(./a.txt)'] } });
    expect((await engine.check(write, { path: 'sub/a.txt' })).behavior).toBe(ASK);
    expect(await suggestionAllows('web/app/(auth)/login/page.tsx')).toBe('write(web/app/(auth)/login/**)');
    expect(await suggestionAllows('web/app/[[...slug]]/page.tsx')).toBe('write(web/app/\\[\\[...slug\\]\\]/**)');
  });

  it('a link of the project leading out gets no suggestion: no one allow rule covers both of its places', async () => {
    file(join(outside, 'target.txt'));
    symlinkSync(join(outside, 'target.txt'), join(wd, 'src', 'app', 'link [x].txt'));
    const asked = await new PermissionEngine({ cwd: wd }).check(write, { path: 'src/app/link [x].txt' });
    expect([asked.behavior, asked.suggestions]).toEqual([ASK, []]);
    // a link outside the project, leading elsewhere, still gets a suggestion for itself
    file(join(base, 'elsewhere', 'target.txt'));
    symlinkSync(join(base, 'elsewhere', 'target.txt'), join(outside, 'link [y].txt'));
    expect(await suggestionAllows(join(outside, 'link [y].txt'))).toMatch(/link \\\[y\\\]\.txt\)$/);
    // the folder rule would not have allowed it: the real path lies outside the folder
    const engine = new PermissionEngine({ cwd: wd, settings: { allow: ['write(src/app/**)'] } });
    expect((await engine.check(write, { path: 'src/app/link [x].txt' })).behavior).toBe(ASK);
  });

  it('offers nothing for a path that cannot be resolved or is not a string', () => {
    symlinkSync('loop', join(wd, 'loop'));
    const hooks = pathRule('path');
    const context = new PermissionContext({ cwd: wd });
    expect(hooks.generateSuggestions({ path: 'loop/x' }, 'write', context)).toEqual([]);
    expect(hooks.generateSuggestions({ path: 3 }, 'write', context)).toEqual([]);
    expect(hooks.generateSuggestions({ path: '' }, 'write', context)).toEqual([]);
  });
});
