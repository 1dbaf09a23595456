import type { Node, Parser } from 'web-tree-sitter';
import type { BashParser } from './bash-parser';
import { ShellAnalysisError } from './shell-error';

// web-tree-sitter's types stay in modules no public declaration imports (a consumer's skipLibCheck: false would
// check them and fail on their Emscripten globals).
export type { Node as SyntaxNode } from 'web-tree-sitter';

/** Parses `source` with the loaded parser; the caller must call `dispose()`. */
export function parseBash(parser: BashParser, source: string): { readonly root: Node; readonly dispose: () => void } {
  const tree = (parser as Parser).parse(source);
  if (tree === null) throw new ShellAnalysisError('SHELL_UNANALYSABLE', 'The bash parser returned no tree.');
  return { root: tree.rootNode, dispose: () => tree.delete() };
}
