import { PermissionBehavior } from '../../../lib/permissions';
import { commandMatchesRule } from '../../../lib/builtins';

const { ALLOW, DENY } = PermissionBehavior;

/**
 * The command comes from the model, so matching a rule's wildcards against it must not backtrack without bound: a
 * regular expression over the whole command took over a minute on the first input. The matcher fills a table of
 * rule tokens x command words bottom-up (no recursion, no regular expression); here the answers on these near misses
 * are checked, with 20,000 words deeper than any recursion could go; `npm run bench -- adversarial` measures the speed.
 */
describe('matching a crafted command: near misses of tens of thousands of words', () => {
  it.each([
    ['* a * a * a * a * b', ' a'.repeat(50000), ALLOW],
    ['* a * a * a * a * b', ' a'.repeat(50000), DENY],
    ['a*', 'b '.repeat(50000), DENY],
    ['git * --force *', `git ${'x '.repeat(20000)}`, ALLOW],
    ['* * * * * * z', ' a'.repeat(20000), DENY],
  ] as const)('near miss %#', async (pattern, command, behavior) => {
    expect(await commandMatchesRule(pattern, command, behavior)).toBe(false);
  });

  it('the same wildcards still match', async () => {
    expect(await commandMatchesRule('git * --force *', 'git push --force origin')).toBe(true);
    expect(await commandMatchesRule('x * a * b', 'x a x a x b', DENY)).toBe(true);
    expect(await commandMatchesRule('a*', 'ab x y', DENY)).toBe(true);
    expect(await commandMatchesRule('a *', 'ax', DENY)).toBe(false);
  });
});
