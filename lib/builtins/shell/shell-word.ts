/**
 * One word of a simple command. `literal`: its value is known before the shell runs (`text` is that value, quotes
 * and escapes removed); otherwise `text` is the source and the value is decided at run time (an expansion, a
 * substitution, a glob or brace pattern). `splits`: an unquoted dynamic word, which the shell may split into any
 * number of words, none included.
 */
export interface ShellWord {
  readonly text: string;
  readonly literal: boolean;
  readonly splits: boolean;
}

export function literalWord(text: string): ShellWord {
  return Object.freeze({ text, literal: true, splits: false });
}

export function dynamicWord(text: string, splits: boolean): ShellWord {
  return Object.freeze({ text, literal: false, splits });
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };

/** Decodes the body of `$'...'` (bash(1), QUOTING); undefined for an escape it does not know (`\c`). */
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
    const code = Number.parseInt(value, radix);
    if (code > 0x10ffff) return undefined;
    text += String.fromCodePoint(e >= '0' && e <= '7' ? code & 0xff : code);
    i = j - 1;
  }
  return text;
}

const HEX = '0123456789abcdefABCDEF';
const OCTAL = '01234567';
