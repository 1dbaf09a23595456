// The one bracket-expression reader of workspace globs and permission path patterns.
import { bracketClass } from '../../lib/fs/bracket-class';
import { compileWorkspaceGlob, type WorkspaceGlob } from '../../lib/fs/workspace-glob';

describe('bracketClass', () => {
  it.each([
    ['a set', '[abc]', '[abc]'],
    ['a range', '[a-z]', '[a-z]'],
    ['negated with !, never a slash', '[!abc]', '[^/abc]'],
    ['negated with ^', '[^a-c]', '[^/a-c]'],
    ['a ] right after [ is a member', '[]a]', '[\\]a]'],
    ['an escaped - is no range', '[a\\-z]', '[a\\-z]'],
    ['a trailing - is a member', '[a-]', '[a\\-]'],
    ['regex specials are escaped', '[\\\\^[]', '[\\\\\\^\\[]'],
    ['an astral character is one member', '[😀x]', '[😀x]'],
  ])('reads %s', (_case, text, source) => {
    expect(bracketClass(text, 0, 'chars')).toEqual({ source, end: text.length - 1 });
    expect(bracketClass(text, 0, 'range')).toEqual({ source, end: text.length - 1 });
  });

  it.each([
    ['no closing ]', '[abc'],
    ['a slash before the ]', '[a/b]'],
    ['only a ] (empty)', '[]'],
  ])('finds none for %s (the [ is then literal)', (_case, text) => {
    expect(bracketClass(text, 0, 'chars')).toBeUndefined();
  });

  it('starts where it is told and reports the index of the closing ]', () => {
    expect(bracketClass('x[ab]y', 1, 'chars')).toEqual({ source: '[ab]', end: 4 });
  });

  it("reads a reversed range as three characters ('chars') or keeps it, for the caller to refuse ('range')", () => {
    expect(bracketClass('[z-a]', 0, 'chars')!.source).toBe('[z\\-a]');
    expect(bracketClass('[z-a]', 0, 'range')!.source).toBe('[z-a]');
    expect(() => new RegExp(bracketClass('[z-a]', 0, 'range')!.source, 'u')).toThrow(SyntaxError);
  });

  it('is what a workspace glob matches with', () => {
    const glob = compileWorkspaceGlob('[!a-c]x') as WorkspaceGlob;
    expect(['dx', 'ax', 'cx'].map((name) => glob.matches(name))).toEqual([true, false, false]);
  });
});
