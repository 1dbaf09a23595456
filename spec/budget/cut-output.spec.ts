import { countLines, cutOutput, cutToLength, fitsBudget, type CutInfo } from '../../lib/budget/cut-output';
import { markerWriter } from '../../lib/budget/saved-output';

const marker = markerWriter(undefined, 'read_output');
const chars = (maxChars: number) => ({ maxChars, maxTokens: undefined, estimateTokens: undefined });
const wellFormed = (text: string) => text.isWellFormed() && !text.includes('\uFFFD');

/** The head and the tail around the marker of a cut text. */
function parts(text: string): { head: string; tail: string; info: string } {
  const start = text.indexOf('\n\n[... ');
  const end = text.indexOf(' ...]\n\n', start) + 7;
  return { head: text.slice(0, start), tail: text.slice(end), info: text.slice(start, end) };
}

describe('cutOutput: head and tail at the exact budget', () => {
  it('leaves text that fits as it is, and cuts one character over budget', () => {
    const text = 'a'.repeat(1000);
    expect(cutOutput(text, chars(1000), marker)).toBe(text);
    const cut = cutOutput(text + 'b', chars(1000), marker);
    expect(cut).toHaveLength(1000);
    expect(cut.endsWith('b')).toBe(true);
    expect(cut.startsWith('aaaa')).toBe(true);
  });

  it('keeps the head and the tail of the original text, and says how much was cut and how many line breaks', () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
    const cut = cutOutput(lines, chars(500), marker);
    expect(cut).toHaveLength(500);
    const { head, tail, info } = parts(cut);
    expect(lines.startsWith(head)).toBe(true);
    expect(lines.endsWith(tail)).toBe(true);
    const cutChars = lines.length - head.length - tail.length;
    const middle = lines.slice(head.length, lines.length - tail.length);
    expect(info).toBe(`\n\n[... ${cutChars} of ${lines.length} characters (${countLines(middle, 0, middle.length)} line breaks) cut here and not kept; ask the tool for less (a filter, a range) to see that part ...]\n\n`);
    expect(Math.abs(head.length - tail.length)).toBeLessThanOrEqual(1);
  });

  it.each([
    ['two-byte characters', 'é'],
    ['three-byte characters', '漢'],
    ['surrogate pairs', '😀'],
    ['mixed', 'a😀é漢\u{10FFFF}'],
  ])('never splits a character at either cut (%s), at every budget around the boundary', (_name, unit) => {
    const text = unit.repeat(400);
    for (let max = 250; max <= 262; max++) {
      const cut = cutOutput(text, chars(max), marker);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut.length).toBeGreaterThanOrEqual(max - 2);
      expect(wellFormed(cut)).toBe(true);
      const { head, tail } = parts(cut);
      expect(text.startsWith(head)).toBe(true);
      expect(text.endsWith(tail)).toBe(true);
    }
  });

  it('moves a cut that falls between the halves of a surrogate pair off it, on the head and on the tail', () => {
    // 'x' + pairs: the cut points land inside a pair for odd budgets.
    for (const text of ['x' + '😀'.repeat(300), '😀'.repeat(300) + 'x', 'xx' + '😀'.repeat(300)]) {
      for (let max = 230; max < 240; max++) {
        const cut = cutOutput(text, chars(max), marker);
        expect(wellFormed(cut)).toBe(true);
        expect(cut.length).toBeLessThanOrEqual(max);
      }
    }
  });

  it('repairs lone surrogates the tool produced, in text that fits and in text that is cut', () => {
    expect(cutOutput('a\uD800b', chars(10), marker)).toBe('a\uFFFDb');
    expect(cutOutput('\uDC00'.repeat(1000), chars(300), marker).isWellFormed()).toBe(true);
  });

  it('cuts without a marker when even the marker does not fit', () => {
    expect(cutOutput('abcdefghij'.repeat(100), chars(20), marker)).toBe('abcdefghijabcdefghij');
    expect(cutToLength('😀'.repeat(100), 5, marker)).toBe('😀😀');
  });

  it('counts tokens with the estimator: the longest cut whose estimate fits', () => {
    const estimate = jest.fn((text: string) => Math.ceil(text.length / 4));
    const text = 'word '.repeat(5000);
    const budget = { maxChars: undefined, maxTokens: 200, estimateTokens: estimate };
    const cut = cutOutput(text, budget, marker);
    expect(estimate(cut)).toBeLessThanOrEqual(200);
    expect(estimate(cut)).toBeGreaterThanOrEqual(199);
    expect(text.startsWith(parts(cut).head)).toBe(true);
    expect(cutOutput('short', budget, marker)).toBe('short');
  });

  it('keeps both limits when both are set', () => {
    const words = 'ab '.repeat(3000);
    const estimate = (text: string) => text.split(' ').length;
    expect(cutOutput(words, { maxChars: 400, maxTokens: 10_000, estimateTokens: estimate }, marker)).toHaveLength(400);
    const byTokens = cutOutput(words, { maxChars: 4000, maxTokens: 100, estimateTokens: estimate }, marker);
    expect(estimate(byTokens)).toBeLessThanOrEqual(100);
    expect(byTokens.length).toBeLessThan(4000);
  });

  it('with a token budget the marker alone exceeds, keeps only as much text as fits, without a marker', () => {
    expect(cutOutput('x'.repeat(1000), { maxChars: undefined, maxTokens: 1, estimateTokens: (t) => t.length }, marker)).toBe('x');
    expect(cutOutput('x'.repeat(1000), { maxChars: undefined, maxTokens: 3, estimateTokens: (t) => t.length }, marker)).toBe('xxx');
  });

  it('fitsBudget checks characters and tokens', () => {
    expect(fitsBudget('abc', chars(3))).toBe(true);
    expect(fitsBudget('abcd', chars(3))).toBe(false);
    expect(fitsBudget('abcd', { maxChars: undefined, maxTokens: 1, estimateTokens: () => 2 })).toBe(false);
  });

  it('the saved marker names the path, the paging tool and the offset of the cut', () => {
    const saved = { id: 'a.txt', path: '.agenttoolkit/outputs/a.txt', uri: 'tool-output://a.txt', chars: 10 };
    const info: CutInfo = { totalChars: 100, offset: 40, cutChars: 20, cutLines: 2 };
    expect(markerWriter(saved, 'page_output')(info)).toBe(
      '\n\n[... 20 of 100 characters (2 line breaks) cut here. The full output is saved at .agenttoolkit/outputs/a.txt: call page_output with {"path": ".agenttoolkit/outputs/a.txt", "offset": 40} to read on from here ...]\n\n',
    );
  });
});
