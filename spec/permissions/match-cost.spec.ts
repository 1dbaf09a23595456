import { pathMatchesRule, PermissionBehavior, PermissionEngine } from '../../lib/permissions';
import { matchName, matchSegments, literalAtom, STAR } from '../../lib/permissions/glob-match';
import { read, scratch } from './fixtures';

/**
 * The path comes from the model, so matching it must not cost more than the pattern length times the path length.
 * A regular expression over the whole path backtracks exponentially on these inputs: the first one took about three
 * seconds with a 52-character path and the second a minute and a half with 400 characters.
 */
describe('matching a crafted path takes bounded time', () => {
  const cases: Array<[string, string]> = [
    ['/**/**/**/**/**/**/**/**/**/x', `${'/a'.repeat(2000)}/y`],
    ['/**/a/**/a/**/a/**/a/**/b', '/a'.repeat(2000)],
    ['/*a*a*a*a*a*b', `/${'a'.repeat(20000)}`],
    ['/**/*a*a*a*b/**/*a*a*c', `/${'a'.repeat(2000)}/${'a'.repeat(2000)}/c`],
    ['/**/[a-z]*[a-z]*[a-z]*[a-z]*9', `/${'a'.repeat(20000)}`],
    ['**/?*?*?*?*?*x', `${'b'.repeat(20000)}`],
  ];

  it.each(cases)('%s against a long near miss', (pattern, path) => {
    const started = process.hrtime.bigint();
    for (const caseInsensitive of [false, true]) expect(pathMatchesRule(pattern, path, { cwd: '/', caseInsensitive })).toBe(false);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2000);
  });

  it('through the engine, a deny rule with many globstars judges a 4000-name path at once', async () => {
    const cwd = scratch('cost');
    const engine = new PermissionEngine({ cwd, settings: { deny: ['read(**/a/**/a/**/a/**/a/**/b)'] } });
    const started = Date.now();
    expect((await engine.check(read, { path: 'a/'.repeat(4000) + 'c' })).behavior).toBe(PermissionBehavior.ALLOW);
    expect((await engine.check(read, { path: 'a/'.repeat(4000) + 'b' })).behavior).toBe(PermissionBehavior.DENY);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('the matchers still find matches that need the last star to stretch', () => {
    const abc = (text: string) => Array.from(text).map((ch) => literalAtom(ch));
    expect(matchName([STAR, ...abc('ab'), STAR, ...abc('b')], 'xaabab', false)).toBe(true);
    expect(matchName([STAR, ...abc('ab'), STAR, ...abc('b')], 'xaaba', false)).toBe(false);
    expect(matchName([...abc('A'), STAR], 'abc', true)).toBe(true);
    expect(matchName([...abc('A'), STAR], 'abc', false)).toBe(false);
    const seg = (name: string) => ({ star: false as const, atoms: abc(name) });
    expect(matchSegments([STAR, seg('a'), STAR, seg('b')], ['a', 'x', 'a', 'b'], false)).toBe(true);
    expect(matchSegments([STAR, seg('a'), STAR, seg('b')], ['a', 'x', 'a', 'c'], false)).toBe(false);
    expect(matchSegments([seg('a'), STAR], ['a'], false)).toBe(true);
    expect(matchSegments([seg('a')], [], false)).toBe(false);
  });
});
