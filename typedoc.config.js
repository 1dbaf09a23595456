// TypeDoc configuration for `npm run docs`: the API reference of every entry point of the package (derived from the
// `exports` map of package.json, so a new subpath is documented without touching this file), with the guides of docs/
// as project documents, written to build/docs/ (git-ignored). Warnings fail the build, and so does an exported symbol
// without TSDoc (validation.notDocumented). Relative paths in the guides are checked by spec/tooling/docs-links.spec.ts
// instead of TypeDoc's invalidPath, which refuses links to folders (GitHub renders them). notExported is off: a few
// internal types appear in public signatures (the report of `npx typedoc --validation.notExported` lists them).
const { exports: exportMap } = require('./package.json');

/** `./dist/a/b.d.ts` -> `lib/a/b.ts`, for every export entry with types. */
const entryPoints = Object.values(exportMap)
  .filter((target) => typeof target === 'object' && typeof target.types === 'string')
  .map((target) => target.types.replace(/^\.\/dist\//, 'lib/').replace(/\.d\.ts$/, '.ts'));

/** @type {Partial<import('typedoc').TypeDocOptions>} */
module.exports = {
  name: 'agenttoolkit',
  entryPoints,
  entryPointStrategy: 'resolve',
  tsconfig: 'tsconfig.build.json',
  out: 'build/docs',
  readme: 'docs/README.md',
  projectDocuments: ['docs/**/*.md'],
  treatWarningsAsErrors: true,
  validation: { notExported: false, invalidLink: true, invalidPath: false, rewrittenLink: true, notDocumented: true, unusedMergeModuleWith: true },
  // Every declaration an entry point exports, and the methods and accessors of its classes and interfaces.
  requiredToBeDocumented: ['Enum', 'EnumMember', 'Variable', 'Function', 'Class', 'Interface', 'Method', 'Accessor', 'TypeAlias', 'Namespace'],
  highlightLanguages: ['bash', 'console', 'css', 'html', 'javascript', 'json', 'jsonc', 'json5', 'yaml', 'tsx', 'typescript', 'markdown', 'text', 'sh', 'ts', 'js'],
  // No links to source lines: they depend on the clone's git remote (none, or a local path, in CI), which TypeDoc warns
  // about, and warnings fail the build.
  disableSources: true,
  // agenttoolkit/typebox re-exports TypeBox 1.x's `Type` namespace and types: TypeDoc would convert all of TypeBox's
  // declarations behind them (it runs out of memory doing so), and they are TypeBox's to document
  // (https://github.com/sinclairzx81/typebox); docs/tools.md#bundled-typebox documents the entry.
  excludeExternals: true,
  externalPattern: ['**/node_modules/typebox/**'],
  excludePrivate: true,
  excludeInternal: true,
  sort: ['kind', 'instance-first', 'alphabetical-ignoring-documents'],
};
