import { cutMiddle } from '../../../lib/builtins/shell/cut-middle';

describe('cutMiddle (the Bash output cut)', () => {
  it('keeps text that fits as it is', () => {
    expect(cutMiddle('short', 10)).toBe('short');
  });

  it('keeps head and tail within the budget, with the marker', () => {
    const text = `${'a'.repeat(500)}${'b'.repeat(500)}`;
    const cut = cutMiddle(text, 300);
    expect(cut.length).toBeLessThanOrEqual(300);
    expect(cut).toMatch(/^a+\n\n\[\.\.\. output cut: 1000 characters in all, the middle was dropped \.\.\.\]\n\nb+$/);
  });

  it('never splits a surrogate pair at either edge', () => {
    for (let shift = 0; shift < 4; shift++) {
      const text = 'x'.repeat(shift) + '😀'.repeat(400);
      const cut = cutMiddle(text, 301);
      expect(cut.length).toBeLessThanOrEqual(301);
      expect(cut.isWellFormed()).toBe(true);
      expect(cut.endsWith('😀')).toBe(true);
    }
  });

  it('falls back to a head-only cut when the budget is too small for the marker', () => {
    const cut = cutMiddle('z'.repeat(1000), 50);
    expect(cut.length).toBeLessThanOrEqual(50);
    expect(cut.startsWith('zzz')).toBe(true);
  });
});
