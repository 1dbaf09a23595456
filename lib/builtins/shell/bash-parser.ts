import { readFile } from 'node:fs/promises';
import type { Node, Parser } from 'web-tree-sitter';
import { ShellAnalysisError } from './shell-error';

export type { Node as SyntaxNode } from 'web-tree-sitter';

let loading: Promise<Parser> | undefined;
let ready: Parser | undefined;

/**
 * The bash parser (tree-sitter's bash grammar on `web-tree-sitter`), loaded on first use and shared. Loading
 * compiles two WebAssembly modules once (tens of milliseconds); a failed load is retried on the next call.
 *
 * @throws ShellAnalysisError `SHELL_PARSER_UNAVAILABLE` when the grammar cannot be loaded.
 */
export function loadBashParser(): Promise<Parser> {
  if (ready !== undefined) return Promise.resolve(ready);
  loading ??= load().then(
    (parser) => (ready = parser),
    (error: unknown) => {
      loading = undefined;
      throw new ShellAnalysisError('SHELL_PARSER_UNAVAILABLE', `The bash parser could not be loaded (${error instanceof Error ? error.message : String(error)}); install web-tree-sitter and tree-sitter-bash.`, { cause: error });
    },
  );
  return loading;
}

/** The parser when it is already loaded, else undefined (lets a caller stay synchronous after the first load). */
export function loadedBashParser(): Parser | undefined {
  return ready;
}

async function load(): Promise<Parser> {
  // Required here, not at the top: importing the built-ins must not load the parser's modules until a command is analysed.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const treeSitter = require('web-tree-sitter') as typeof import('web-tree-sitter');
  await treeSitter.Parser.init();
  // Bytes, not a path: given a path, web-tree-sitter reads it through a dynamic import, which some hosts (jest's VM) refuse.
  const language = await treeSitter.Language.load(await readFile(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm')));
  const parser = new treeSitter.Parser();
  parser.setLanguage(language);
  return parser;
}

/** Parses `source` with the loaded parser; the caller must `delete()` the tree. */
export function parseBash(parser: Parser, source: string): { readonly root: Node; readonly dispose: () => void } {
  const tree = parser.parse(source);
  if (tree === null) throw new ShellAnalysisError('SHELL_UNANALYSABLE', 'The bash parser returned no tree.');
  return { root: tree.rootNode, dispose: () => tree.delete() };
}
