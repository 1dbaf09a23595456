#!/usr/bin/env node
// Run by `npm run build` after tsc. Node pays per module file (resolve, read, compile), so dist/ ships few files:
//
// 1. Third-party bundles: the compiled JavaScript of a few modules is replaced by a single-file esbuild bundle of the
//    same TypeScript source, its packages included: TypeBox's type builder (the agenttoolkit/typebox entry) and Ajv
//    with ajv-formats (loaded by the validator on the first compile). Each starts with the licences of what it holds.
// 2. The library bundle: the modules the root entry reaches go into one file, dist/library.bundle.js, and each of
//    their own files becomes a stub taking its module from the bundle (an entry's stub assigns its exports by name).
//    The other entry points stay one file per module and require those stubs, so there is one copy of each class
//    whichever entries a program loads (`instanceof` holds across entries), and an application bundler following the
//    root entry meets no optional peer. Every package stays external, and so do the third-party bundles of step 1.
//
// Inside a bundle each module stays a function that runs on its first require, and each entry of the library bundle
// is a getter: what loads lazily (an entry, a dialect of Ajv, an optional peer) still does. The .d.ts files are tsc's.
// See docs/benchmarks.md.
const { readdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
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

/** The optional peer dependencies: code that requires one stays out of the library bundle (see below). */
function optionalPeers() {
  const { peerDependenciesMeta = {} } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return Object.keys(peerDependenciesMeta).filter((name) => peerDependenciesMeta[name].optional);
}

/** A relative import of a file that stays separate is kept as a require of that file, relative to the bundle. */
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

const esbuildOptions = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', plugins: [separate], logLevel: 'error', keepNames: true };

/**
 * The library bundle holds the modules the root entry reaches, and only those: an application bundler that follows
 * `require('agenttoolkit')` then meets the same packages as before (never an optional peer such as the MCP SDK, Nest
 * or dockerode, which only other entry points reach). Every bundled module's own file becomes a one-line stub taking
 * that module from the bundle, so the other entry points (still one file per module) share its one copy of each
 * class. `keepNames`: a class that names itself in its body would otherwise be renamed (`_Skills`) in messages.
 */
async function bundleLibrary() {
  const { exports: exportMap } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const entries = Object.entries(exportMap)
    .filter(([, target]) => typeof target === 'object' && typeof target.default === 'string')
    .map(([subpath, target]) => ({ subpath, file: target.default.replace(/^\.\/dist\//, '') }))
    .filter(({ file }) => !SEPARATE.some((re) => re.test(file)));
  const rootEntry = entries.find(({ subpath }) => subpath === '.');
  const graph = await esbuild.build({ ...esbuildOptions, entryPoints: [join(dist, rootEntry.file)], write: false, metafile: true, outfile: join(dist, BUNDLE) });
  const modules = Object.keys(graph.metafile.inputs).map((input) => relative(dist, join(root, input)));
  const peers = optionalPeers();
  const reached = Object.values(graph.metafile.inputs).flatMap(({ imports }) => imports.filter((i) => i.external).map((i) => i.path));
  const peer = reached.find((path) => peers.some((name) => path === name || path.startsWith(`${name}/`)));
  if (peer !== undefined) throw new Error(`the root entry reaches the optional peer '${peer}': load it lazily from an entry point of its own`);
  // The names each entry exports at run time (type-only names have no value), read from tsc's output before it goes.
  const inBundle = new Set(modules);
  const bundledEntries = entries.filter(({ file }) => inBundle.has(file));
  const names = Object.fromEntries(bundledEntries.map(({ subpath, file }) => [subpath, Object.keys(require(join(dist, file)))]));
  const contents = `// The modules of the root entry point's graph, each initialised on first use.\nmodule.exports = {\n${modules.map((file) => `  get ${JSON.stringify(file)}() { return require(${JSON.stringify(`./${file}`)}); },`).join('\n')}\n};\n`;
  await esbuild.build({ ...esbuildOptions, stdin: { contents, resolveDir: dist, sourcefile: 'library-modules.js', loader: 'js' }, outfile: join(dist, BUNDLE) });
  for (const file of modules) {
    const from = relative(dirname(join(dist, file)), join(dist, BUNDLE));
    const bundlePath = JSON.stringify(from.startsWith('.') ? from : `./${from}`);
    const entry = bundledEntries.find((e) => e.file === file);
    // An entry assigns its exports by name: Node finds an ES module import's names by scanning the file's source.
    const body = entry
      ? `Object.defineProperty(exports, "__esModule", { value: true });\nconst entry = require(${bundlePath})[${JSON.stringify(file)}];\n${names[entry.subpath].map((name) => `exports.${name} = entry.${name};`).join('\n')}\n`
      : `module.exports = require(${bundlePath})[${JSON.stringify(file)}];\n`;
    writeFileSync(join(dist, file), `"use strict";\n// This module is in ${basename(BUNDLE)}: see scripts/bundle.js.\n${body}`);
  }
  return { out: `dist/${BUNDLE}`, inputs: modules.length, bytes: statSync(join(dist, BUNDLE)).size };
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
