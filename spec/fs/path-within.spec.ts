import { isWithin } from '../../lib/fs/path-within';

describe('isWithin', () => {
  it.each([
    ['/w/proj', '/w/proj', true],
    ['/w/proj', '/w/proj/a/b', true],
    ['/w/proj/', '/w/proj/a', true],
    ['/w/proj', '/w/proj-evil', false],
    ['/w/proj', '/w/pro', false],
    ['/w/proj', '/w', false],
    ['/', '/anything/at/all', true],
    ['/', '/', true],
  ])('isWithin(%s, %s) is %s', (root, path, expected) => {
    expect(isWithin(root, path)).toBe(expected);
  });

  it('compares without case only when asked', () => {
    expect(isWithin('/W/Proj', '/w/proj/x')).toBe(false);
    expect(isWithin('/W/Proj', '/w/proj/x', { caseInsensitive: true })).toBe(true);
    expect(isWithin('/W/Proj', '/w/proj-x', { caseInsensitive: true })).toBe(false);
  });
});
