/**
 * One word of a simple command. `literal`: its value is known before the shell runs (`text` is that value, quotes
 * and escapes removed); otherwise `text` is the source and the value is decided at run time (an expansion, a
 * substitution, a glob or brace pattern, a tilde prefix). `splits`: an unquoted dynamic word, which the shell may
 * split into any number of words, none included. `tilde`: the word is dynamic only through its tilde prefixes (`~`,
 * `~/x`, `~user/x`, `~+`, and in bash `NAME=~/x` or `NAME=a:~/x`), which the shell replaces by a home or working
 * directory of the run (bash(1), Tilde Expansion): its value is one word that never starts with `-`, and no path
 * judged from its text is the path that runs.
 */
export interface ShellWord {
  readonly text: string;
  readonly literal: boolean;
  readonly splits: boolean;
  readonly tilde?: true;
}

export function literalWord(text: string): ShellWord {
  return Object.freeze({ text, literal: true, splits: false });
}

export function dynamicWord(text: string, splits: boolean): ShellWord {
  return Object.freeze({ text, literal: false, splits });
}

/** Whether `word` is a tilde word with no quote or escape, whose source is its value but for the tilde prefixes. */
export function isPlainTilde(word: ShellWord): boolean {
  return word.tilde === true && !/[\\'"]/.test(word.text);
}

/** A word whose only run-time part is its tilde prefixes (see {@link ShellWord}); `text` is its source. */
export function tildeWord(text: string): ShellWord {
  return Object.freeze({ text, literal: false, splits: false, tilde: true });
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };

/**
 * Decodes the body of `$'...'` (bash(1), QUOTING) as bash does, up to the first NUL it yields (bash drops the rest
 * of the string); undefined for an escape it does not know (`\c`).
 */
export function decodeAnsiC(body: string): string | undefined {
  let text = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      text += c;
      continue;
    }
    const e = body[++i];
    if (e === undefined) return undefined;
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      text += simple;
      continue;
    }
    const [digits, radix, max] = e === 'x' ? [HEX, 16, 2] : e === 'u' ? [HEX, 16, 4] : e === 'U' ? [HEX, 16, 8] : e >= '0' && e <= '7' ? [OCTAL, 8, 3] : [undefined, 0, 0];
    if (digits === undefined) return undefined;
    let j = e >= '0' && e <= '7' ? i : i + 1;
    let value = '';
    while (value.length < max && j < body.length && digits.includes(body[j]!)) value += body[j++];
    if (value === '') return undefined;
    const parsed = Number.parseInt(value, radix);
    if (parsed > 0x10ffff) return undefined;
    const code = e >= '0' && e <= '7' ? parsed & 0xff : parsed;
    // bash ends the string at a NUL and drops the rest of it: `r$'m\0xx'` is `rm`.
    if (code === 0) return text;
    text += String.fromCodePoint(code);
    i = j - 1;
  }
  return text;
}

const HEX = '0123456789abcdefABCDEF';
const OCTAL = '01234567';
