// The read-only program and wrapper tables of docs/shell-analysis.md are generated from READ_ONLY_PROGRAMS and
// WRAPPER_GRAMMARS: this spec fails when they differ, and `UPDATE_DOCS=1 npx jest spec/builtins/shell/grammar-doc.spec.ts`
// rewrites them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { READ_ONLY_PROGRAMS, WRAPPER_GRAMMARS, type OptionSpec, type ProgramGrammar } from '../../../lib/builtins';

const PAGE = join(__dirname, '..', '..', '..', 'docs', 'shell-analysis.md');

function spell(o: OptionSpec, syntax: ProgramGrammar['syntax']): string {
  const dash = syntax === 'find' ? '-' : '--';
  return [...o.short.map((c) => `-${c}`), ...o.long.map((l) => `${dash}${l}`)].map((s) => `\`${s}\``).join('/');
}

function options(g: ProgramGrammar, effects: readonly string[]): string {
  return g.options.filter((o) => effects.includes(o.effect)).map((o) => `${spell(o, g.syntax)} (${o.effect}${o.note === undefined ? '' : `: ${o.note}`})`).join('; ');
}

function operands(g: ProgramGrammar): string {
  if (g.operands.length === 0) return 'none';
  return g.operands.map((o) => `${o.name}${o.repeat === true ? '...' : ''} (${o.kind}${o.startsWith === undefined ? '' : `, only read when it starts with \`${o.startsWith}\``})`).join(' ');
}

function requires(g: ProgramGrammar): string {
  return (g.requires ?? []).map((r) => `${[...r.all, ...(r.any === undefined ? [] : [`one of ${r.any.join(', ')}`])].join(' and ')}${r.when === undefined ? '' : ` with ${r.when.join(', ')}`}: ${r.why}`).join('; ');
}

function rows(g: ProgramGrammar, prefix = ''): string[] {
  const name = `\`${prefix}${g.name}\`${(g.aliases ?? []).map((a) => `, \`${prefix}${a}\``).join('')}`;
  const refused = [options(g, ['writes', 'runs', 'network']), requires(g) === '' ? '' : `needs ${requires(g)}`].filter((x) => x !== '').join('; ') || 'none';
  const row = `| ${name} | ${g.syntax} | ${g.options.reduce((n, o) => n + o.short.length + o.long.length, 0)} | ${refused} | ${options(g, ['reads-file']) || 'none'} | ${operands(g)} | ${g.source}${g.note === undefined ? '' : `; ${g.note}`} |`;
  return [row, ...(g.subcommands ?? []).flatMap((s) => rows(s, `${prefix}${g.name} `))];
}

function programTable(): string {
  return ['| program | syntax | option spellings | not read-only | reads the file named by | operands | source |', '|---|---|---|---|---|---|---|', ...READ_ONLY_PROGRAMS.flatMap((g) => rows(g))].join('\n');
}

function wrapperTable(): string {
  const row = (w: (typeof WRAPPER_GRAMMARS)[number]) => {
    const roles = w.options.filter((o) => o.role !== undefined || o.effect !== 'read-only').map((o) => `${spell(o, w.syntax)} (${o.role ?? o.effect})`).join('; ') || 'none';
    const flags = [w.transparent ? 'transparent' : 'allow rules stop here', w.assignments === true ? 'NAME=VALUE words' : '', w.appends === true ? 'appends its input' : '', w.defaultsToShell === true ? 'a shell without a command' : ''].filter((x) => x !== '').join(', ');
    return `| \`${w.name}\` | ${w.options.reduce((n, o) => n + o.short.length + o.long.length, 0)} | ${roles} | ${operands(w)} | ${flags} | ${w.source} |`;
  };
  return ['| wrapper | option spellings | options that change what runs | operands | rules and words | source |', '|---|---|---|---|---|---|', ...WRAPPER_GRAMMARS.map(row)].join('\n');
}

it.each([
  ['read-only-programs', programTable],
  ['wrappers', wrapperTable],
])('docs/shell-analysis.md shows the %s table generated from the grammar data', (marker, table) => {
  const start = `<!-- ${marker}:start -->\n`;
  const end = `<!-- ${marker}:end -->`;
  const text = readFileSync(PAGE, 'utf8');
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  expect(from).toBeGreaterThan(0);
  expect(to).toBeGreaterThan(from);
  const current = text.slice(from + start.length, to);
  const wanted = `\n${table()}\n\n`;
  if (process.env.UPDATE_DOCS === '1' && current !== wanted) writeFileSync(PAGE, text.slice(0, from + start.length) + wanted + text.slice(to));
  else expect(current).toBe(wanted);
});
