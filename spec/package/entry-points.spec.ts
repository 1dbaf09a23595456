import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script of the repository
const { entryMap, entryMapMarkdown } = require('../../scripts/entry-map.js') as {
  entryMap(): Array<{ entry: string; file: string; names: string[] }>;
  entryMapMarkdown(map?: Array<{ entry: string; names: string[] }>): string;
};

const root = join(__dirname, '..', '..');
const map = entryMap();

/** The names exported by more than one entry point, each with those entry points. */
function duplicates(entries: Array<{ entry: string; names: string[] }>): Record<string, string[]> {
  const seen: Record<string, string[]> = {};
  for (const { entry, names } of entries) for (const name of names) (seen[name] ??= []).push(entry);
  return Object.fromEntries(Object.entries(seen).filter(([, where]) => where.length > 1));
}

describe('the entry points of the package', () => {
  it('are read from every typed export of package.json, each with names', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    expect(map.map((e) => e.entry)).toEqual(Object.keys(pkg.exports).filter((k) => k !== './package.json').map((k) => (k === '.' ? 'agenttoolkit' : `agenttoolkit/${k.slice(2)}`)));
    for (const { entry, names } of map) expect([entry, names.length > 0]).toEqual([entry, true]);
  });

  it('export each public name from exactly one entry point', () => {
    expect(duplicates(map)).toEqual({});
  });

  it('the duplicate check finds a name two entry points export', () => {
    expect(duplicates([{ entry: 'a', names: ['X', 'Y'] }, { entry: 'b', names: ['Y'] }])).toEqual({ Y: ['a', 'b'] });
  });

  it('match the entry map of docs/README.md (regenerate it with `node scripts/entry-map.js --write`)', () => {
    const text = readFileSync(join(root, 'docs', 'README.md'), 'utf8');
    const start = '<!-- entry-map:start -->\n';
    const listed = text.slice(text.indexOf(start) + start.length, text.indexOf('<!-- entry-map:end -->'));
    expect(listed.trim()).toBe(entryMapMarkdown(map).trim());
  });
});
