import { PermissionBehavior } from '../../../lib/permissions';
import { commandMatchesRule } from '../../../lib/builtins';

const { ALLOW, DENY } = PermissionBehavior;

/**
 * The command comes from the model, so matching a rule's wildcards against it must not backtrack without bound: a
 * regular expression over the whole command took over a minute on the first input. The limit is generous (it guards
 * against minutes, it is not a speed target; `npm run bench -- shell` measures speed).
 */
describe('matching a crafted command takes bounded time', () => {
  it.each([
    ['*a*a*a*a*b', 'a'.repeat(50000), ALLOW],
    ['*a*a*a*a*b', 'a'.repeat(50000), DENY],
    ['git * --force *', `git ${'x '.repeat(20000)}`, ALLOW],
    ['* * * * * * z', ' a'.repeat(20000), DENY],
  ] as const)('near miss %#', async (pattern, command, behavior) => {
    const started = Date.now();
    expect(await commandMatchesRule(pattern, command, behavior)).toBe(false);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('the same wildcards still match', async () => {
    expect(await commandMatchesRule('git * --force *', 'git push --force origin')).toBe(true);
    expect(await commandMatchesRule('x*a*b', 'xaxaxb', DENY)).toBe(true);
    expect(await commandMatchesRule('a*.b', 'ax.b', DENY)).toBe(true);
    expect(await commandMatchesRule('a*.b', 'axxb', DENY)).toBe(false);
  });
});
