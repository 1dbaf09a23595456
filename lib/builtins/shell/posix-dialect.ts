import type { SyntaxNode } from './syntax-tree';
import { hasBraceExpansion } from './word-of';

/** `${...}` operators POSIX defines (POSIX.1-2017 Shell Command Language, 2.6.2 Parameter Expansion). */
const POSIX_EXPANSION_TOKENS: ReadonlySet<string> = new Set(['${', '}', ':-', '-', ':=', '=', ':?', '?', ':+', '+', '%', '%%', '#', '##']);

/** Redirection operators of bash only (bash(1), REDIRECTION): dash reads `&>` as `&` then `>`. */
const BASH_REDIRECTS: ReadonlySet<string> = new Set(['&>', '&>>', '<<<']);

/**
 * Node types of bash's grammar with no POSIX meaning, or another one (dash and ash run them differently or not at
 * all): `$'...'`, `$"..."`, `<(...)`, brace ranges, arrays and subscripts, extended globs.
 */
const BASH_NODE_TYPES: ReadonlyMap<string, string> = new Map([
  ['ansi_c_string', "$'...' quoting"],
  ['translated_string', '$"..." quoting'],
  ['process_substitution', 'process substitution'],
  ['brace_expression', 'brace expansion'],
  ['array', 'an array'],
  ['subscript', 'an array subscript'],
  ['extglob_pattern', 'an extended glob'],
  ['herestring_redirect', 'a here-string (<<<)'],
]);

/** Commands that are bash keywords or builtins with no POSIX counterpart (a POSIX shell runs a program of that name, or fails). */
const BASH_COMMANDS: ReadonlySet<string> = new Set(['coproc', 'select', 'declare', 'typeset', 'let', 'shopt', 'mapfile', 'readarray', 'enable', 'source']);

/**
 * Why `node` means something else, or nothing, in a POSIX shell (dash, busybox ash) than in bash, or undefined. Only
 * the node itself and its direct tokens are judged; callers visit every node.
 */
export function bashOnlyConstruct(node: SyntaxNode): string | undefined {
  const type = node.type;
  const known = BASH_NODE_TYPES.get(type);
  if (known !== undefined) return known;
  const first = node.child(0)?.type;
  switch (type) {
    case 'test_command':
      if (first === '[[') return 'the [[ ... ]] test';
      if (hasToken(node, '==')) return '== in a test';
      return undefined;
    case 'compound_statement':
      return first === '((' ? 'the (( ... )) arithmetic command' : undefined;
    case 'c_style_for_statement':
      return 'the C-style for loop';
    case 'for_statement':
      return first === 'select' ? 'select' : undefined;
    case 'function_definition':
      return first === 'function' ? 'the function keyword' : undefined;
    case 'pipeline':
      return hasToken(node, '|&') ? 'the |& pipe' : undefined;
    case 'case_item':
      return hasToken(node, ';&') || hasToken(node, ';;&') ? 'a case fall-through (;& or ;;&)' : undefined;
    case 'file_redirect':
      return node.children.some((c) => c !== null && !c.isNamed && BASH_REDIRECTS.has(c.type)) ? `the ${node.children.find((c) => c !== null && BASH_REDIRECTS.has(c.type))!.type} redirection` : undefined;
    case 'expansion':
      if (node.children.some((c) => c !== null && !c.isNamed && !POSIX_EXPANSION_TOKENS.has(c.type))) return `the parameter expansion ${node.text}`;
      return undefined;
    case 'arithmetic_expansion':
      return node.text.startsWith('$[') ? 'the $[...] arithmetic' : undefined;
    case 'declaration_command':
      if (first === 'declare' || first === 'typeset') return first;
      return node.namedChildren.some((c) => c !== null && c.type === 'word' && c.text.startsWith('-')) ? `${first ?? 'a declaration'} with options` : undefined;
    case 'command_name':
      return BASH_COMMANDS.has(node.text) ? `the bash command ${node.text}` : undefined;
    case 'word':
    case 'concatenation':
      return hasBraceExpansion(node) ? 'brace expansion' : undefined;
    default:
      return undefined;
  }
}

function hasToken(node: SyntaxNode, token: string): boolean {
  for (const child of node.children) {
    if (child === null) continue;
    if (!child.isNamed && child.type === token) return true;
    // `[ a == b ]` nests the operator in a binary expression.
    if (child.type === 'binary_expression' && hasToken(child, token)) return true;
  }
  return false;
}
