/**
 * The bracket expression of a glob (`[abc]`, `[a-z]`, `[!abc]`, `[^abc]`, `\` escaping the next character) as a
 * regular expression class over one character: the one reading the workspace globs and the permission path patterns
 * share, so a rule and a Glob call read `[...]` alike.
 */

/** What {@link bracketClass} found: the class and where it ends. */
export interface BracketClass {
  /** The regular expression class (`[a-z]`, `[^/abc]`): it matches one character, never `/`. */
  readonly source: string;
  /** The index of the closing `]` in the text. */
  readonly end: number;
}

/**
 * The bracket expression starting at `text[start]` (a `[`), or undefined when there is none (no closing `]`, or a
 * `/` before it; the `[` is then literal). A `]` right after the `[` (or after `!`/`^`) is a member; `!` and `^`
 * negate. A reversed range (`[z-a]`) is read as its three characters when `reversedRange` is `'chars'`, and kept as
 * a range when it is `'range'` (its class then fails to compile, which the caller reports).
 */
export function bracketClass(text: string, start: number, reversedRange: 'chars' | 'range'): BracketClass | undefined {
  let i = start + 1;
  let negate = false;
  if (text[i] === '!' || text[i] === '^') {
    negate = true;
    i++;
  }
  const chars: Array<{ ch: string; escaped: boolean }> = [];
  for (; i < text.length; i++) {
    let escaped = false;
    if (text[i] === '\\' && i + 1 < text.length) {
      escaped = true;
      i++;
    }
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    i += ch.length - 1;
    if (ch === '/') return undefined;
    if (ch === ']' && !escaped && chars.length > 0) return { source: classSource(chars, negate, reversedRange), end: i };
    chars.push({ ch, escaped });
  }
  return undefined;
}

function classSource(chars: ReadonlyArray<{ ch: string; escaped: boolean }>, negate: boolean, reversedRange: 'chars' | 'range'): string {
  const items: string[] = [];
  for (let k = 0; k < chars.length; k++) {
    const dash = chars[k + 1];
    const isRange = dash !== undefined && dash.ch === '-' && !dash.escaped && k + 2 < chars.length && (reversedRange === 'range' || chars[k]!.ch <= chars[k + 2]!.ch);
    if (isRange) {
      items.push(`${classChar(chars[k]!.ch)}-${classChar(chars[k + 2]!.ch)}`);
      k += 2;
    } else {
      items.push(classChar(chars[k]!.ch));
    }
  }
  return `[${negate ? '^/' : ''}${items.join('')}]`;
}

/** A member as written inside a class: `\`, `]`, `[`, `^` and `-` escaped. */
function classChar(ch: string): string {
  return /[\\\][^-]/.test(ch) ? `\\${ch}` : ch;
}
