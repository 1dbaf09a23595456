/**
 * Line endings for the file tools. Read shows a file's lines without their endings, so the text a model copies from
 * Read output has `\n` between lines whatever the file uses (`\r\n` on Windows, a lone `\r` in old Mac files, or a
 * mix). Edit matches such text against the file with any line break standing for any other, and writes the
 * replacement with the endings the file has where it matched, so a CRLF file stays CRLF.
 */

/** One line break: `\r\n`, a lone `\r`, or `\n`. Global, for splitting and counting. */
export const LINE_BREAK = /\r\n|\r|\n/g;

/** A line break in a file: `\r\n` taken whole, a `\r` only when no `\n` follows, a `\n` only when no `\r` precedes. */
const FILE_BREAK = '(?:\\r\\n|\\r(?!\\n)|(?<!\\r)\\n)';

/** The lines of a text (a final line break ends the last line; it does not start an empty one). */
export function splitLines(text: string): string[] {
  const lines = text.split(LINE_BREAK);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Where an edit's old text matched a file, with the line breaks the file has there. */
export type EndingMatch =
  | { readonly kind: 'none' }
  | { readonly kind: 'ambiguous'; readonly count: number }
  | {
      readonly kind: 'found';
      /**
       * The file's text at each match (distinct values, in order of first occurrence) with its replacement, and how many
       * times it is replaced; undefined when a literal replacement of these texts would touch other places than the
       * matches (a `\n` inside a `\r\n`), so the whole {@link content} must be written instead.
       */
      readonly replacements: ReadonlyArray<{ readonly oldText: string; readonly newText: string; readonly count: number }> | undefined;
      /** How many occurrences are replaced. */
      readonly count: number;
      /** The file's content after the edit. */
      readonly content: string;
    };

/**
 * Finds `oldText` in `text`, any line break of `oldText` matching any line break of the file, non-overlapping from
 * left to right (the first one, or every one with `all`). Each occurrence is replaced by `newText` with its line
 * breaks written as the break the occurrence has (its first), or, for an occurrence without one, as the file's most
 * common break (`\n` in a file without breaks or on a tie).
 */
export function matchWithEndings(text: string, oldText: string, newText: string, all: boolean): EndingMatch {
  const pattern = new RegExp(oldText.split(LINE_BREAK).map(escapeRegExp).join(FILE_BREAK), 'g');
  const found = [...text.matchAll(pattern)];
  if (found.length === 0) return { kind: 'none' };
  if (found.length > 1 && !all) return { kind: 'ambiguous', count: found.length };
  const usual = commonBreak(text);
  const byOld = new Map<string, { newText: string; count: number }>();
  let content = '';
  let last = 0;
  for (const match of found) {
    const actual = match[0];
    const ending = /\r\n|\r|\n/.exec(actual)?.[0] ?? usual;
    const replacement = newText.replace(LINE_BREAK, ending);
    const seen = byOld.get(actual);
    if (seen === undefined) byOld.set(actual, { newText: replacement, count: 1 });
    else seen.count++;
    content += text.slice(last, match.index) + replacement;
    last = match.index + actual.length;
  }
  content += text.slice(last);
  const replacements = [...byOld].map(([oldText, { newText, count }]) => ({ oldText, newText, count }));
  // One after another, each replacement must meet exactly its own matches (and not create new ones for the next).
  let rest = text;
  for (const { oldText: actual, newText: replacement, count } of replacements) {
    const parts = rest.split(actual);
    if (parts.length - 1 !== count) return { kind: 'found', replacements: undefined, count: found.length, content };
    rest = parts.join(replacement);
  }
  return { kind: 'found', replacements: rest === content ? replacements : undefined, count: found.length, content };
}

/** The file's most common line break; `\n` when it has none or on a tie. */
function commonBreak(text: string): string {
  const counts = new Map<string, number>([['\n', 0], ['\r\n', 0], ['\r', 0]]);
  for (const [ending] of text.matchAll(LINE_BREAK)) counts.set(ending, counts.get(ending)! + 1);
  let best = '\n';
  for (const [ending, count] of counts) if (count > counts.get(best)!) best = ending;
  return best;
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}
