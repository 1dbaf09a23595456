import { readFile } from 'node:fs/promises';
import { ShellAnalysisError } from './shell-error';

/**
 * The loaded bash parser: web-tree-sitter's `Parser` (https://github.com/tree-sitter/tree-sitter/tree/master/lib/binding_web)
 * with tree-sitter's bash grammar set. Declared by the one member the built-ins call, so this package's type
 * declarations do not need web-tree-sitter's; cast it to web-tree-sitter's `Parser` to use the rest.
 */
export interface BashParser {
  /**
   * Parses `source` into a syntax tree (its root's `type` is `program`; `text` is the source it spans); the tree must
   * be freed with `delete()`. Null when parsing was cancelled.
   */
  parse(source: string): {
    /** The root node: its grammar `type` and the source `text` it spans. */
    readonly rootNode: { readonly type: string; readonly text: string };
    /** Frees the tree's WebAssembly memory. */
    delete(): void;
  } | null;
}

let loading: Promise<BashParser> | undefined;
let ready: BashParser | undefined;

/**
 * The bash parser (tree-sitter's bash grammar on `web-tree-sitter`), loaded on first use and shared. Loading
 * compiles two WebAssembly modules once (tens of milliseconds); a failed load is retried on the next call.
 *
 * @throws ShellAnalysisError `SHELL_PARSER_UNAVAILABLE` when the grammar cannot be loaded.
 */
export function loadBashParser(): Promise<BashParser> {
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
export function loadedBashParser(): BashParser | undefined {
  return ready;
}

async function load(): Promise<BashParser> {
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
