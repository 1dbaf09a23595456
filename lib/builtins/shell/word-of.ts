import type { SyntaxNode } from './syntax-tree';
import { decodeAnsiC, literalWord, dynamicWord, tildeWord, type ShellWord } from './shell-word';

/** The value of a word-like node (word, string, raw string, ANSI-C string, concatenation, expansion...). */
export function wordOf(node: SyntaxNode): ShellWord {
  switch (node.type) {
    case 'word':
      return unquotedWord(node.text);
    case 'number':
      return literalWord(node.text);
    case 'raw_string':
      return literalWord(node.text.slice(1, -1));
    case 'ansi_c_string': {
      const decoded = decodeAnsiC(node.text.slice(2, -1));
      return decoded === undefined ? dynamicWord(node.text, false) : literalWord(decoded);
    }
    case 'string':
    case 'translated_string':
      return doubleQuoted(node);
    case 'variable_assignment': {
      const value = node.childForFieldName('value');
      const name = node.childForFieldName('name')?.text ?? '';
      const word = value === null ? literalWord('') : wordOf(value);
      if (value?.type === 'word' && word.literal && ASSIGNED_TILDE.test(value.text)) return tildeWord(node.text);
      return word.literal ? literalWord(`${name}=${word.text}`) : word.tilde === true ? tildeWord(node.text) : dynamicWord(node.text, false);
    }
    case 'concatenation': {
      let text = '';
      let literal = true;
      let splits = false;
      for (const part of node.namedChildren) {
        if (part === null) continue;
        const word = wordOf(part);
        text += word.text;
        literal &&= word.literal;
        splits ||= word.splits;
      }
      // The grammar splits `{rm,-rf}` into several words: look for globs and brace lists across the unquoted parts.
      if (literal && unquotedWord(patternText(node)).literal && sameSpan(node)) return literalWord(text);
      return dynamicWord(node.text, true);
    }
    default:
      // An expansion, a substitution, a brace or glob pattern: known only at run time, and split when unquoted.
      return dynamicWord(node.text, true);
  }
}

/**
 * Whether an unquoted word or concatenation holds a brace list or range (`{a,b}`, `{1..3}`), which bash expands and a
 * POSIX shell keeps as written.
 */
export function hasBraceExpansion(node: SyntaxNode): boolean {
  const source = node.type === 'concatenation' ? patternText(node) : node.text;
  let openBrace = false;
  let braceList = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') i++;
    else if (c === '{') openBrace = true;
    else if (openBrace && (c === ',' || (c === '.' && source[i + 1] === '.'))) braceList = true;
    else if (c === '}' && braceList) return true;
  }
  return false;
}

/** A concatenation's source with each quoted part replaced by a neutral letter, for glob and brace detection. */
function patternText(node: SyntaxNode): string {
  let text = '';
  for (const part of node.namedChildren) if (part !== null) text += part.type === 'word' ? part.text : 'q';
  return text;
}

/** Whether the named children of a concatenation cover all of it (no unnamed text such as a bare `$` between them). */
function sameSpan(node: SyntaxNode): boolean {
  let at = node.startIndex;
  for (const part of node.children) {
    if (part === null || part.startIndex !== at) return false;
    if (!part.isNamed) return false;
    at = part.endIndex;
  }
  return at === node.endIndex;
}

/**
 * An unquoted word: backslashes quote the next character (a backslash-newline disappears). A glob (`*`, `?`, a
 * `[...]` class) or a brace list or range (`{a,b}`, `{1..3}`) makes the word dynamic; a tilde prefix makes it a
 * {@link tildeWord}.
 */
function unquotedWord(source: string): ShellWord {
  let text = '';
  let pattern = false;
  let openBracket = false;
  let openBrace = false;
  let braceList = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1];
      i++;
      if (next === undefined || next === '\n') continue;
      text += next;
      continue;
    }
    if (c === '*' || c === '?') pattern = true;
    else if (c === '[') openBracket = true;
    else if (c === ']' && openBracket) pattern = true;
    else if (c === '{') openBrace = true;
    else if (openBrace && (c === ',' || (c === '.' && source[i + 1] === '.'))) braceList = true;
    else if (c === '}' && braceList) pattern = true;
    else if (c === '$' || c === '`') pattern = true;
    text += c;
  }
  if (pattern) return dynamicWord(source, true);
  return source.startsWith('~') || ASSIGNMENT_LIKE_TILDE.test(source) ? tildeWord(source) : literalWord(text);
}

/** A tilde prefix after an assignment's `=` or a `:` in its value: the shell expands both (bash(1), dash(1)). */
const ASSIGNED_TILDE = /(^|:)~/;

/**
 * An argument shaped like an assignment with a tilde prefix in its value (`make DIR=~/x`, `a=b:~/y`): bash outside
 * POSIX mode expands it as it would an assignment (bash(1), Tilde Expansion).
 */
const ASSIGNMENT_LIKE_TILDE = /^[A-Za-z_][A-Za-z0-9_]*=(?:.*:)?~/s;

function doubleQuoted(node: SyntaxNode): ShellWord {
  let text = '';
  for (const part of node.namedChildren) {
    if (part === null) continue;
    if (part.type !== 'string_content') return dynamicWord(node.text, false);
    text += unescapeDoubleQuoted(part.text);
  }
  // Unnamed text between the quotes (a lone `$`) is literal and kept by the source span check.
  const inner = node.text.startsWith('$"') ? node.text.slice(2, -1) : node.text.slice(1, -1);
  const contentLength = node.namedChildren.reduce((n, part) => n + (part?.text.length ?? 0), 0);
  if (contentLength !== inner.length) {
    if (node.namedChildren.length === 0 && inner.length === 0) return literalWord('');
    return dynamicWord(node.text, false);
  }
  return literalWord(text);
}

/** Inside double quotes a backslash quotes only `$`, `` ` ``, `"`, `\` and a newline (bash(1), QUOTING). */
function unescapeDoubleQuoted(source: string): string {
  let text = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
      i++;
      if (next !== '\n') text += next;
      continue;
    }
    text += c;
  }
  return text;
}
