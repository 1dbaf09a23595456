#!/usr/bin/env node
// Fails when text that ships to users (lib/ sources, whose TSDoc ends up in the .d.ts files, and docs/) cites
// material that only the project's authors have: design seeds, an internal semantics document, shared folders.
// Run by `npm run lint` after eslint. Usage: node scripts/check-internal-refs.js [folder...] (default: lib docs).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** What counts as a citation of internal material; each pattern is tested line by line. */
const PATTERNS = [
  // "seed 004", "seed-004", "seed: ...", "the seed's", "(seed)", "as in the seed"; not "seeded" or "seedling".
  { name: 'design seed', regex: /\bseeds?(?:[ -]?\d{2,}|:|'s\b|\))|\b(?:the|a) seeds?\b(?!-)|\bseeds?\//i },
  { name: 'seed file name', regex: /\b\d{3}_[0-9a-f]{16}\b/ },
  { name: 'internal semantics document', regex: /semantics\.md|reference semantics/i },
  { name: 'section of an internal document', regex: /\bsemantics\b[^.\n]{0,40}(?:§|\bsection\s+\d)/i },
  { name: 'bare section number', regex: /\(\s*(?:§|section)\s*\d+[^)]*\)|^\s*(?:\*|\/\/).*\s§\s?\d/i },
  { name: 'shared folder', regex: /\.\.\/shared\b/ },
];

const EXTENSIONS = new Set(['.ts', '.md', '.js', '.mjs', '.cjs', '.json']);

function* files(dir) {
  if (fs.statSync(dir).isFile()) {
    yield dir;
    return;
  }
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile() && EXTENSIONS.has(path.extname(entry.name))) yield full;
  }
}

function check(roots) {
  const findings = [];
  for (const root of roots) {
    if (!fs.existsSync(root)) continue;
    for (const file of files(root)) {
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const { name, regex } of PATTERNS) {
          const match = regex.exec(line);
          if (match) {
            findings.push(`${file}:${i + 1}: ${name} ("${match[0]}"): ${line.trim().slice(0, 120)}`);
            break; // one finding per line
          }
        }
      });
    }
  }
  return findings;
}

module.exports = { PATTERNS, check };

if (require.main === module) {
  const roots = process.argv.length > 2 ? process.argv.slice(2) : ['lib', 'docs'];
  const findings = check(roots);
  if (findings.length > 0) {
    process.stderr.write(
      `${findings.join('\n')}\n\n${findings.length} reference(s) to internal material in text that ships to users. ` +
        'Cite this library or a public source (a specification, a provider\'s documentation, a man page) instead.\n',
    );
    process.exit(1);
  }
}
