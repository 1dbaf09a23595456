#!/usr/bin/env node
// Run by `npm run build` after tsc. Node pays per module file (resolve, read, compile), so dist/ ships few files:
//
// 1. Third-party bundles: the compiled JavaScript of a few modules is replaced by a single-file esbuild bundle of the
//    same TypeScript source, its packages included: TypeBox's type builder (the agenttoolkit/typebox entry) and Ajv
//    with ajv-formats (loaded by the validator on the first compile). Each starts with the licences of what it holds.
// 2. The library bundle: every module tsc compiled (the entries' and those they import) goes into one file,
//    dist/library.bundle.js, and each entry file becomes a few lines that take its exports from it. One file means one
//    copy of each class, whichever entries a program loads (`instanceof` holds across entries). Every package stays
//    external (required where the library requires it), and so do the third-party bundles of step 1.
//
// Inside a bundle each module stays a function that runs on its first require, and each entry of the library bundle
// is a getter: what loads lazily (an entry, a dialect of Ajv, an optional peer) still does. The .d.ts files are tsc's.
// See docs/benchmarks.md.
const { readdirSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { basename, dirname, join, relative } = require('node:path');
const esbuild = require('esbuild');

const root = join(__dirname, '..');

/**
 * The modules whose dist JavaScript is a bundle: each may import third-party packages, never another lib/ module.
 * `entry`: the module is an entry point that ES modules import. Node finds the named exports of a CommonJS file it
 * imports by scanning the file's source, which costs about 0.15 ms per kilobyte: an entry's bundle goes to a file
 * beside it (`<name>.bundle.js`) and the entry becomes a few lines that require it and assign each export by name.
 */
const BUNDLES = [
  { source: 'lib/typebox/index.ts', out: 'dist/typebox/index.js', entry: true },
  { source: 'lib/schema/ajv-modules.ts', out: 'dist/schema/ajv-modules.js' },
];

/** The package folder (`node_modules/<name>` or `node_modules/@scope/name`) an input path lies in, if any. */
function packageDir(input) {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match ? match[1] : undefined;
}

/** A comment with the name, version, licence name and licence text of each package a bundle holds. */
function licenceBanner(source, inputs) {
  const packages = [...new Set(inputs.map(packageDir).filter(Boolean))].sort();
  const notices = packages.map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const file = readdirSync(join(root, dir)).find((name) => /^licen[cs]e/i.test(name));
    if (!file) throw new Error(`${pkg.name}: no licence file to carry into the bundle of ${source}`);
    const text = readFileSync(join(root, dir, file), 'utf8').trim().replace(/\*\//g, '* /');
    return `${pkg.name} ${pkg.version} (${pkg.license}):\n\n${text}`;
  });
  return `/*!\n * Bundled from ${source} of agenttoolkit with the packages below, whose licences follow.\n *\n${notices
    .join('\n\n----\n\n')
    .split('\n')
    .map((line) => ` * ${line}`.trimEnd())
    .join('\n')}\n */`;
}

async function bundle({ source, out, entry }) {
  const bundleFile = entry ? out.replace(/\.js$/, '.bundle.js') : out;
  const result = await esbuild.build({
    entryPoints: [join(root, source)],
    outfile: join(root, bundleFile),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    metafile: true,
    write: false,
    legalComments: 'none',
    logLevel: 'error',
  });
  const inputs = Object.keys(result.metafile.inputs);
  const ownModules = inputs.filter((input) => !input.includes('node_modules/') && relative(root, join(root, input)) !== source);
  // A lib/ module copied into a bundle would be a second copy of its classes beside the one the other entries load.
  if (ownModules.length > 0) throw new Error(`${source}: its bundle would hold library modules (${ownModules.join(', ')}); import them lazily or not at all`);
  const [file] = result.outputFiles;
  writeFileSync(file.path, `${licenceBanner(source, inputs)}\n${file.text}`);
  if (entry) {
    const names = Object.keys(require(file.path));
    const bundled = `./${basename(bundleFile)}`;
    const lines = names.map((name) => `exports.${name} = bundle.${name};`);
    writeFileSync(join(root, out), `"use strict";\n// The code is in ${bundled} (licences at its top). Exports assigned by name: see scripts/bundle.js.\nconst bundle = require(${JSON.stringify(bundled)});\n${lines.join('\n')}\n`);
  }
  return { out: bundleFile, inputs: inputs.length, bytes: file.contents.length };
}

const dist = join(root, 'dist');
const BUNDLE = 'library.bundle.js';
/** Files of dist/ that stay files of their own: the third-party bundles (required lazily, or an entry alone). */
const SEPARATE = [/^schema\/ajv-modules\.js$/, /^typebox\//];

async function bundleLibrary() {
  const { exports: exportMap } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const entries = Object.entries(exportMap)
    .filter(([, target]) => typeof target === 'object' && typeof target.default === 'string')
    .map(([subpath, target]) => ({ subpath, file: target.default.replace(/^\.\/dist\//, '') }))
    .filter(({ file }) => !SEPARATE.some((re) => re.test(file)));
  // The names each entry exports at run time (type-only names have no value), read from tsc's output before it goes.
  const names = Object.fromEntries(entries.map(({ subpath, file }) => [subpath, Object.keys(require(join(dist, file)))]));
  const contents = `// Each entry point of the package, initialised on first use.\nmodule.exports = {\n${entries.map(({ subpath, file }) => `  get ${JSON.stringify(subpath)}() { return require(${JSON.stringify(`./${file}`)}); },`).join('\n')}\n};\n`;
  // A relative import of a file that stays separate is kept as a require of that file, relative to the bundle.
  const separate = {
    name: 'separate',
    setup(build) {
      build.onResolve({ filter: /^\./ }, ({ path, resolveDir }) => {
        const target = relative(dist, join(resolveDir, path)).replace(/(\.js)?$/, '.js');
        if (SEPARATE.some((re) => re.test(target))) return { path: `./${target}`, external: true };
        return undefined;
      });
    },
  };
  const result = await esbuild.build({
    stdin: { contents, resolveDir: dist, sourcefile: 'library-entries.js', loader: 'js' },
    outfile: join(dist, BUNDLE),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    plugins: [separate],
    metafile: true,
    logLevel: 'error',
  });
  const bundled = Object.keys(result.metafile.inputs).filter((input) => input.startsWith('dist/') && input !== 'dist/library-entries.js').map((input) => relative(dist, join(root, input)));
  // The modules now in the bundle go: a second copy of them beside it could only be loaded by mistake.
  for (const file of bundled) rmSync(join(dist, file));
  for (const { subpath, file } of entries) {
    const from = relative(dirname(join(dist, file)), join(dist, BUNDLE));
    const lines = names[subpath].map((name) => `exports.${name} = entry.${name};`);
    writeFileSync(join(dist, file), `"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nconst entry = require(${JSON.stringify(from.startsWith('.') ? from : `./${from}`)})[${JSON.stringify(subpath)}];\n${lines.join('\n')}\n`);
  }
  return { out: `dist/${BUNDLE}`, inputs: bundled.length, bytes: statSync(join(dist, BUNDLE)).size };
}

async function main() {
  for (const step of [...BUNDLES.map((spec) => () => bundle(spec)), bundleLibrary]) {
    const { out, inputs, bytes } = await step();
    if (process.argv.includes('--verbose')) process.stdout.write(`${out}: ${inputs} modules, ${bytes} bytes\n`);
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
