import { cutText, toWellFormed, utf8CutLength } from '../../lib/text/cut-text';

describe('cutText', () => {
  it('never leaves a lone high surrogate when the cut falls inside a pair', () => {
    const text = `${'x'.repeat(496)}🎉 tail`;
    const cut = cutText(text, 500);
    expect(cut.length).toBeLessThanOrEqual(500);
    expect(cut.isWellFormed()).toBe(true);
    expect(cut).toBe(`${'x'.repeat(496)}...`);
  });

  it('keeps a whole pair when it fits', () => {
    expect(cutText(`ab🎉cdef`, 7)).toBe('ab🎉...');
  });

  it('returns fitting text unchanged, repaired when it holds lone surrogates', () => {
    expect(cutText('short', 10)).toBe('short');
    expect(cutText('a\ud800b', 10)).toBe('a\ufffdb');
    expect(cutText('a\udc00b'.repeat(10), 8)).toBe('a\ufffdba\ufffd...');
  });

  it('honours a custom marker and a max smaller than the marker', () => {
    expect(cutText('abcdef', 4, '…')).toBe('abc…');
    // the budget wins over the marker: the result never exceeds max
    expect(cutText('abcdef', 1)).toBe('a');
    expect(cutText('🎉🎉', 1)).toBe('');
  });

  it('toWellFormed returns the same string when nothing needs repair', () => {
    const s = 'plain 🎉';
    expect(toWellFormed(s)).toBe(s);
    expect(toWellFormed('\udc00x')).toBe('\ufffdx');
  });
});

describe('utf8CutLength', () => {
  const bytes = Buffer.from('a€🎉', 'utf8'); // 1 + 3 + 4 bytes

  it.each([
    [0, 0], [1, 1], [2, 1], [3, 1], [4, 4], [5, 4], [6, 4], [7, 4], [8, 8], [100, 8],
  ])('cut at %i bytes keeps %i', (max, kept) => {
    const n = utf8CutLength(bytes, max);
    expect(n).toBe(kept);
    expect(Buffer.from(bytes.subarray(0, n)).toString('utf8')).not.toContain('\ufffd');
  });
});
