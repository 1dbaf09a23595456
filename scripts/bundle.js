#!/usr/bin/env node
// Run by `npm run build` after tsc: replaces the compiled JavaScript of a few modules in dist/ with a single-file
// esbuild bundle of the same TypeScript source, its third-party packages included. Node pays per module file
// (resolve, read, compile), and these packages ship as hundreds of small CommonJS files: TypeBox's type builder
// (the agenttoolkit/typebox entry) and Ajv with ajv-formats (loaded by the validator on the first compile). Inside a
// bundle each module stays a function that runs on its first require, so what loads lazily today still does.
// The .d.ts files are tsc's. Each bundle starts with the licence of every package it holds. See docs/benchmarks.md.
const { readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { basename, join, relative } = require('node:path');
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

async function main() {
  for (const spec of BUNDLES) {
    const { out, inputs, bytes } = await bundle(spec);
    if (process.argv.includes('--verbose')) process.stdout.write(`${out}: ${inputs} modules, ${bytes} bytes\n`);
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
