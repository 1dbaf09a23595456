import { pathMatchesRule, PermissionBehavior, PermissionEngine } from '../../lib/permissions';
import * as glob from '../../lib/permissions/glob-match';
import { matchName, matchSegments, literalAtom, STAR, type NameAtom } from '../../lib/permissions/glob-match';
import { read, scratch } from './fixtures';

/**
 * The path comes from the model, so matching it must not cost more than the pattern length times the path length.
 * A regular expression over the whole path backtracks exponentially on these inputs: the first one took about three
 * seconds with a 52-character path and the second a minute and a half with 400 characters.
 *
 * The cost is counted, not timed: every one-character test the matcher makes (a literal, a bracket class, `?`) goes
 * through a counting wrapper, which also stops a run-away match at once instead of letting it block the process.
 * `npm run bench -- adversarial` measures the speed.
 */
describe('matching a crafted path takes bounded time', () => {
  let tests = 0;
  const cap = { limit: Number.POSITIVE_INFINITY };
  const counting = (atom: NameAtom): NameAtom => {
    if (atom.star) return atom;
    return {
      star: false,
      one: (ch, caseInsensitive) => {
        if (++tests > cap.limit) throw new Error(`the matcher made more than ${cap.limit} character tests`);
        return atom.one(ch, caseInsensitive);
      },
    };
  };
  beforeEach(() => {
    tests = 0;
    cap.limit = Number.POSITIVE_INFINITY;
    const literal = glob.literalAtom;
    const klass = glob.classAtom;
    jest.spyOn(glob, 'literalAtom').mockImplementation((ch) => counting(literal(ch)));
    jest.spyOn(glob, 'classAtom').mockImplementation((source) => counting(klass(source)));
    jest.replaceProperty(glob, 'ANY_ONE', counting(glob.ANY_ONE));
  });
  afterEach(() => jest.restoreAllMocks());

  /** Counts the character tests `run` makes, failing as soon as they pass `limit`. */
  const testsMadeBy = async (limit: number, run: () => unknown): Promise<number> => {
    tests = 0;
    cap.limit = limit;
    await run();
    return tests;
  };

  const cases: Array<[string, string]> = [
    ['/**/**/**/**/**/**/**/**/**/x', `${'/a'.repeat(2000)}/y`],
    ['/**/a/**/a/**/a/**/a/**/b', '/a'.repeat(2000)],
    ['/*a*a*a*a*a*b', `/${'a'.repeat(20000)}`],
    ['/**/*a*a*a*b/**/*a*a*c', `/${'a'.repeat(2000)}/${'a'.repeat(2000)}/c`],
    ['/**/[a-z]*[a-z]*[a-z]*[a-z]*9', `/${'a'.repeat(20000)}`],
    ['**/?*?*?*?*?*x', `${'b'.repeat(20000)}`],
  ];

  it.each(cases)('%s against a long near miss', async (pattern, path) => {
    for (const caseInsensitive of [false, true]) {
      let matched: boolean | undefined;
      const made = await testsMadeBy(pattern.length * path.length, () => (matched = pathMatchesRule(pattern, path, { cwd: '/', caseInsensitive })));
      expect(matched).toBe(false);
      expect(made).toBeGreaterThan(0);
      expect(made).toBeLessThanOrEqual(pattern.length * path.length);
    }
  });

  it('the count is real: a pattern that needs its last star to stretch makes more tests on a longer path', async () => {
    const short = await testsMadeBy(Infinity, () => pathMatchesRule('/*a*b', `/${'a'.repeat(100)}`, { cwd: '/' }));
    const long = await testsMadeBy(Infinity, () => pathMatchesRule('/*a*b', `/${'a'.repeat(1000)}`, { cwd: '/' }));
    expect(long).toBeGreaterThan(5 * short);
  });

  it('through the engine, a deny rule with many globstars judges a 4000-name path in bounded work', async () => {
    const cwd = scratch('cost');
    const rule = '**/a/**/a/**/a/**/a/**/b';
    const engine = new PermissionEngine({ cwd, settings: { deny: [`read(${rule})`] } });
    for (const [last, behavior] of [['c', PermissionBehavior.ALLOW], ['b', PermissionBehavior.DENY]] as const) {
      const path = 'a/'.repeat(4000) + last;
      const limit = (cwd.length + rule.length + 1) * (cwd.length + path.length + 1);
      let decided: PermissionBehavior | undefined;
      const made = await testsMadeBy(limit, async () => (decided = (await engine.check(read, { path })).behavior));
      expect(decided).toBe(behavior);
      expect(made).toBeLessThanOrEqual(limit);
    }
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
