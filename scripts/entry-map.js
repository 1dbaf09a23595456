#!/usr/bin/env node
// The names each entry point of the package exports (package.json `exports`, read from the TypeScript sources with
// the compiler's own view of each module), for the entry map of docs/README.md and its spec. Run it to print the map
// as markdown: `node scripts/entry-map.js`; `node scripts/entry-map.js --write` rewrites the map in docs/README.md.
const { join } = require('node:path');
const ts = require('typescript');

const root = join(__dirname, '..');

/** Every entry point with types: `{ entry: 'agenttoolkit/sandbox', file: 'lib/sandbox/index.ts' }`. */
function entryPoints() {
  const { name, exports: exportMap } = require(join(root, 'package.json'));
  return Object.entries(exportMap)
    .filter(([, target]) => typeof target === 'object' && typeof target.types === 'string')
    .map(([subpath, target]) => ({
      entry: subpath === '.' ? name : `${name}/${subpath.slice(2)}`,
      file: target.types.replace(/^\.\/dist\//, 'lib/').replace(/\.d\.ts$/, '.ts'),
    }));
}

/** Each entry point with the sorted names it exports (values and types), and those of them that are types only. */
function entryMap() {
  const entries = entryPoints();
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.build.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const program = ts.createProgram(entries.map((e) => join(root, e.file)), config.options);
  const checker = program.getTypeChecker();
  return entries.map(({ entry, file }) => {
    const source = program.getSourceFile(join(root, file));
    const symbol = source && checker.getSymbolAtLocation(source);
    const exported = symbol ? checker.getExportsOfModule(symbol) : [];
    const resolved = (s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
    const sort = (list) => list.sort((a, b) => a.localeCompare(b, 'en'));
    return {
      entry,
      file,
      names: sort(exported.map((s) => s.getName())),
      typeOnly: sort(exported.filter((s) => !(resolved(s).flags & ts.SymbolFlags.Value)).map((s) => s.getName())),
    };
  });
}

/** The entry map as markdown: one section per entry point, its names in backticks. */
function entryMapMarkdown(map = entryMap()) {
  return map.map(({ entry, names }) => `### \`${entry}\`\n\n${names.map((n) => `\`${n}\``).join(', ')}\n`).join('\n');
}

/** Replaces what lies between the entry-map markers of docs/README.md with the current map. */
function writeEntryMap() {
  const { readFileSync, writeFileSync } = require('node:fs');
  const page = join(root, 'docs', 'README.md');
  const text = readFileSync(page, 'utf8');
  const start = '<!-- entry-map:start -->\n';
  const end = '<!-- entry-map:end -->';
  const from = text.indexOf(start) + start.length;
  writeFileSync(page, `${text.slice(0, from)}\n${entryMapMarkdown()}\n${text.slice(text.indexOf(end))}`);
}

module.exports = { entryPoints, entryMap, entryMapMarkdown };

if (require.main === module) {
  if (process.argv.includes('--write')) writeEntryMap();
  else process.stdout.write(entryMapMarkdown());
}
