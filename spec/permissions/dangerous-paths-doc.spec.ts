// The dangerous-path table of docs/permissions.md is generated from DANGEROUS_PATHS: this spec fails when they
// differ, and `UPDATE_DOCS=1 npx jest spec/permissions/dangerous-paths-doc.spec.ts` rewrites the table.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DANGEROUS_PATHS } from '../../lib/permissions';

const PAGE = join(__dirname, '..', '..', 'docs', 'permissions.md');
const START = '<!-- dangerous-paths:start -->\n';
const END = '<!-- dangerous-paths:end -->';

function table(): string {
  const rows = DANGEROUS_PATHS.map((e) => `| \`${e.path}${e.kind === 'directory' ? '/' : ''}\` | ${e.reason} | [${e.readBy}](${e.source}) |`);
  return ['| path | why | read by |', '|---|---|---|', ...rows].join('\n');
}

it('docs/permissions.md lists every dangerous path with its reason and manual', () => {
  const text = readFileSync(PAGE, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  expect(from).toBeGreaterThan(0);
  expect(to).toBeGreaterThan(from);
  const current = text.slice(from + START.length, to);
  const wanted = `\n${table()}\n\n`;
  if (process.env.UPDATE_DOCS === '1' && current !== wanted) writeFileSync(PAGE, text.slice(0, from + START.length) + wanted + text.slice(to));
  else expect(current).toBe(wanted);
});
