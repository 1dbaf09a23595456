/**
 * Here-documents as the shell reads them (bash(1), "Here Documents"; POSIX.1-2017 Shell Command Language, 2.7.4):
 * the delimiter is the word after `<<` with quote removal applied, the body is quoted when any part of that word is,
 * and the body ends at the first line that is exactly the delimiter (leading tabs stripped first for `<<-`).
 */

/** A here-document delimiter after quote removal; `quoted` when the word had a quote or backslash. */
export interface HeredocDelimiter {
  readonly text: string;
  readonly quoted: boolean;
}

/**
 * The delimiter the shell takes from the word written after `<<`, or undefined when the word holds what the analysis
 * does not decode the same way in bash and POSIX sh (`$`, a backquote, a newline, an unterminated quote).
 */
export function decodeDelimiter(word: string): HeredocDelimiter | undefined {
  let text = '';
  let quoted = false;
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (c === '$' || c === '`' || c === '\n') return undefined;
    if (c === '\\') {
      quoted = true;
      const next = word[++i];
      if (next === undefined || next === '\n') return undefined;
      text += next;
    } else if (c === "'") {
      quoted = true;
      const close = word.indexOf("'", i + 1);
      if (close < 0) return undefined;
      text += word.slice(i + 1, close);
      i = close;
    } else if (c === '"') {
      quoted = true;
      let j = i + 1;
      for (; j < word.length && word[j] !== '"'; j++) {
        const d = word[j]!;
        if (d === '$' || d === '`') return undefined;
        if (d === '\\' && '"\\'.includes(word[j + 1] ?? '')) j++;
        text += word[j];
      }
      if (j >= word.length) return undefined;
      i = j;
    } else text += c;
  }
  return text === '' && !quoted ? undefined : { text, quoted };
}

/** `line` without its leading tabs (what `<<-` compares and keeps). */
export function stripLeadingTabs(line: string): string {
  let i = 0;
  while (line[i] === '\t') i++;
  return line.slice(i);
}

/**
 * Whether the body lines (`lines`, the text between the here-document's first line and its end line) hold a line
 * that ends the document early: one equal to the delimiter, or, for an unquoted delimiter, one that becomes it once
 * backslash-newline pairs are removed (bash joins them before comparing; a shell that does not is covered too).
 */
export function endsEarly(lines: readonly string[], delimiter: HeredocDelimiter, stripTabs: boolean): boolean {
  const strip = (l: string) => (stripTabs ? stripLeadingTabs(l) : l);
  if (lines.some((l) => strip(l) === delimiter.text)) return true;
  if (delimiter.quoted) return false;
  let joined = '';
  for (const line of lines) {
    if (endsWithOddBackslashes(line)) {
      joined += line.slice(0, -1);
      continue;
    }
    if (strip(joined + line) === delimiter.text || (joined !== '' && strip(joined) === delimiter.text)) return true;
    joined = '';
  }
  return joined !== '' && strip(joined) === delimiter.text;
}

function endsWithOddBackslashes(line: string): boolean {
  let n = 0;
  for (let i = line.length - 1; i >= 0 && line[i] === '\\'; i--) n++;
  return n % 2 === 1;
}

/**
 * The backquote substitutions of an unquoted here-document body, as `[start, end)` spans of their code (without the
 * backquotes) and the code with the body's escapes removed (`\\`, `` \` ``, `\$` are one character inside backquotes).
 * `skip` are spans already read as other substitutions (`$(...)`, `${...}`), whose text is not scanned. Undefined
 * when a backquote is not closed.
 */
export function backquoteSubstitutions(body: string, skip: readonly (readonly [number, number])[]): string[] | undefined {
  const codes: string[] = [];
  for (let i = 0; i < body.length; i++) {
    const span = skip.find(([s, e]) => i >= s && i < e);
    if (span !== undefined) {
      i = span[1] - 1;
      continue;
    }
    const c = body[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c !== '`') continue;
    let code = '';
    let j = i + 1;
    for (; j < body.length && body[j] !== '`'; j++) {
      if (body[j] === '\\' && '\\`$'.includes(body[j + 1] ?? '')) j++;
      code += body[j];
    }
    if (j >= body.length) return undefined;
    codes.push(code);
    i = j;
  }
  return codes;
}
