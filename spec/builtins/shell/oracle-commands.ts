/**
 * The commands of the read-only oracle (read-only-oracle.ts): every option the verdict's grammar table
 * (`READ_ONLY_PROGRAMS`) and each program's own `--help` (git: `git <subcommand> -h`) list, in every spelling its parser accepts (long, `--name=value`, `--name value`,
 * abbreviations, short, glued short value, short clusters), with odd operands (files, folders, links, missing paths,
 * stdin `-`, a second operand), combinations of two and three options, pipelines and lists of them, and the attack
 * kinds of the bypass reports (wrappers, `X version`, git aliases, programs as option values). Which of them the
 * analysis claims read-only is for the oracle to find out: the generator keeps writing and running options on
 * purpose.
 */
import { spawnSync } from 'node:child_process';
import { READ_ONLY_PROGRAMS, type ProgramGrammar } from '../../../lib/builtins';

/** The programs of the verdict's grammar table (`READ_ONLY_PROGRAMS`), aliases included, git aside. */
export const PROGRAMS: readonly string[] = READ_ONLY_PROGRAMS.filter((g) => g.name !== 'git').flatMap((g) => [g.name, ...(g.aliases ?? [])]);

/** git's grammar, whose subcommands (and theirs: `remote show`, `reflog show`) the generator walks. */
const GIT: ProgramGrammar | undefined = READ_ONLY_PROGRAMS.find((g) => g.name === 'git');

/** The git subcommands of the grammar table, as the words after `git`, and others the old table knew. */
export const GIT_SUBCOMMANDS: readonly (readonly string[])[] = [
  ...(GIT?.subcommands ?? []).flatMap((sub) => [[sub.name], ...(sub.subcommands ?? []).map((inner) => [sub.name, inner.name])]),
  ...['branch', 'tag', 'remote', 'reflog', 'config', 'ls-remote', 'fetch', 'notes', 'worktree', 'stash'].map((name) => [name]),
];

/**
 * The options a grammar entry lists, every effect included (writing and running ones are the point): long names as
 * `--name` (find's primaries as `-name`), short letters as `-x`, with a placeholder from the effect (`runs`: a
 * command, `writes` and `reads-file`: a file) or the option's name.
 */
export function grammarOptions(grammar: ProgramGrammar | undefined): HelpOption[] {
  if (grammar === undefined) return [];
  return grammar.options.flatMap((o) => {
    const placeholder = o.effect === 'runs' ? 'command' : o.effect === 'writes' || o.effect === 'reads-file' ? 'file' : (o.long[0] ?? '');
    const dashes = grammar.syntax === 'find' ? '-' : '--';
    return [
      ...o.long.map((name) => ({ spelling: `${dashes}${name}`, value: o.value, placeholder })),
      ...o.short.map((letter) => ({ spelling: `-${letter}`, value: o.value, placeholder })),
    ];
  });
}

function grammarOf(name: string, within?: ProgramGrammar): ProgramGrammar | undefined {
  const table = within?.subcommands ?? READ_ONLY_PROGRAMS;
  return table.find((g) => g.name === name || (g.aliases ?? []).includes(name));
}

/** The options of `help` and of `grammar`, once each by spelling (a grammar's value wins over a help text's guess). */
function merged(help: readonly HelpOption[], grammar: readonly HelpOption[]): HelpOption[] {
  const out = new Map(help.map((o) => [o.spelling, o]));
  for (const o of grammar) out.set(o.spelling, o);
  return [...out.values()];
}

/** One option as a help text lists it. */
export interface HelpOption {
  /** As written: `--name`, `-x`, or find's single-dash `-name`. */
  readonly spelling: string;
  readonly value: 'none' | 'required' | 'optional';
  /** The value's placeholder (`FILE`, `<pager>`), lower case; empty when none. */
  readonly placeholder: string;
}

const PLACEHOLDER = /^(?:<[^>]+>|[A-Z][A-Z0-9_:-]*(?:\[[^\]]*\])?|\[[^\]]+\])$/;

/**
 * The options a help text names anywhere (prose included: an option too many is only an unknown option, one too
 * few is a spelling never tried). `--[no-]x` gives `--x` and `--no-x`.
 */
export function helpOptions(text: string): HelpOption[] {
  const found = new Map<string, HelpOption>();
  const tokens = text.split(/[\s,|()]+/).filter((t) => t !== '');
  tokens.forEach((token, k) => {
    const match = /^(--?)(\[no-\])?([A-Za-z0-9][\w-]*)(\[?=|\[)?(.*)$/.exec(token.replace(/[.;:'"`]+$/, ''));
    if (match === null) return;
    const [, dashes, negatable, name, glue, rest] = match;
    if (dashes === '-' && name!.length > 1 && /^[A-Z0-9]/.test(name!) && glue === undefined) {
      // `-Olevel`, `-U<n>`: a short option with a glued value.
      if (/^[A-Za-z]/.test(name!)) add(`-${name![0]}`, 'required', name!.slice(1).toLowerCase());
      return;
    }
    const next = tokens[k + 1] ?? '';
    let value: HelpOption['value'] = 'none';
    let placeholder = '';
    if (glue === '[=' || glue === '[') {
      value = 'optional';
      placeholder = rest!.replace(/[\]<>]/g, '');
    } else if (glue === '=') {
      value = 'required';
      placeholder = rest!.replace(/[<>]/g, '');
    } else if (PLACEHOLDER.test(next) && !/^-/.test(next)) {
      value = next.startsWith('[') ? 'optional' : 'required';
      placeholder = next.replace(/[[\]<>]/g, '');
    }
    add(`${dashes}${name}`, value, placeholder.toLowerCase());
    if (negatable !== undefined) add(`--no-${name}`, 'none', '');
  });
  function add(spelling: string, value: HelpOption['value'], placeholder: string) {
    if (spelling === '--help' || spelling === '-h' || spelling === '--' || spelling === '-') return;
    const known = found.get(spelling);
    if (known === undefined || (known.value === 'none' && value !== 'none')) found.set(spelling, { spelling, value, placeholder });
  }
  return [...found.values()];
}

/** Values to give an option, by what its placeholder says it is: a file, a program, a pattern, a number, a date. */
export function valuesFor(placeholder: string): readonly string[] {
  if (/command|cmd|prog|pager|exec|binary|shell|helper/.test(placeholder)) return ['touch'];
  if (/file|path|dir|output|archive|out\b|log/.test(placeholder)) return ['new.txt', 'data.txt'];
  if (/pattern|regex|glob/.test(placeholder)) return ['hello'];
  if (/date|time|string/.test(placeholder)) return ['2020-01-01'];
  if (/num|^n$|size|count|width|depth|level|max|lines|bytes|col|tab|context|threads|skip|limit|when/.test(placeholder)) return ['1'];
  return ['x'];
}

/** The help text of `program` (its `--help`; git's `-h`), empty when it has none here. */
function helpText(argv: readonly string[]): string {
  const run = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', timeout: 10_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' }, cwd: '/' });
  return `${run.stdout ?? ''}\n${run.stderr ?? ''}`;
}

/** Every spelling of one option the GNU, git and find parsers accept, with values from {@link valuesFor}. */
export function spellings(option: HelpOption, cluster: string | undefined): string[][] {
  const out: string[][] = [];
  const values = valuesFor(option.placeholder);
  const { spelling } = option;
  if (spelling.startsWith('--')) {
    const name = spelling.slice(2);
    const prefixes = [...new Set([1, 2, 3, name.length - 1].filter((n) => n > 0 && n < name.length).map((n) => `--${name.slice(0, n)}`))];
    for (const form of [spelling, ...prefixes]) {
      if (option.value !== 'required') out.push([form]);
      for (const v of values) {
        out.push([`${form}=${v}`]);
        if (option.value === 'required') out.push([form, v]);
      }
    }
  } else if (spelling.length === 2) {
    if (option.value !== 'required') out.push([spelling]);
    for (const v of values) {
      out.push([`${spelling}${v}`]);
      if (option.value === 'required') out.push([spelling, v]);
    }
    if (cluster !== undefined && cluster !== spelling[1]) {
      out.push([`-${cluster}${spelling[1]}`]);
      if (option.value !== 'none') out.push([`-${cluster}${spelling[1]}${values[0]}`]);
    }
  } else {
    // find's single-dash long options; a COMMAND value ends at `;`.
    const end = /command/.test(option.placeholder) ? [';'] : [];
    if (option.value === 'none') out.push([spelling]);
    else for (const v of values) out.push([spelling, v, ...end]);
  }
  return out;
}

/** Operand lists: none, a file, a folder, links to a file and a folder, a missing path, stdin, and second operands. */
export const OPERANDS: readonly (readonly string[])[] = [
  [], ['data.txt'], ['sub'], ['link'], ['sublink'], ['missing'], ['-'], ['data.txt', 'new.txt'], ['-', 'new.txt'], ['data.txt', 'notes.md'], ['.'],
];

/** git operand lists: none, a revision, a path, `--` and a path, a missing path, a range. */
export const GIT_OPERANDS: readonly (readonly string[])[] = [
  [], ['HEAD'], ['data.txt'], ['--', 'data.txt'], ['HEAD', '--', 'missing'], ['HEAD~1..HEAD'], ['new.txt'],
];

/** Quotes a word for bash when it needs it. */
export function quoteWord(word: string): string {
  return /^[\w@%+=:,./~-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A small deterministic generator (mulberry32), so every run tries the same commands. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One program's commands: its operand lists alone and each spelling once (`first`), then the rest (`more`). */
function programCommands(head: readonly string[], options: readonly HelpOption[], operands: readonly (readonly string[])[], next: () => number): { first: string[]; more: string[] } {
  const cluster = options.find((o) => o.spelling.length === 2 && o.spelling[0] === '-' && o.value === 'none' && /[a-z]/.test(o.spelling[1]!))?.spelling[1];
  const forms = options.flatMap((o) => spellings(o, cluster));
  const line = (...parts: (readonly string[])[]) => parts.flat().map(quoteWord).join(' ');
  const first = operands.map((ops) => line(head, ops));
  const more: string[] = [];
  forms.forEach((form, k) => {
    first.push(line(head, form, operands[k % operands.length]!));
    for (let j = 1; j < 3; j++) more.push(line(head, form, operands[(k + j * 4) % operands.length]!));
  });
  const pick = () => forms[Math.floor(next() * forms.length)]!;
  for (let k = 0; forms.length > 1 && k < forms.length; k++) {
    const ops = operands[Math.floor(next() * operands.length)]!;
    more.push(line(head, pick(), pick(), ops));
    if (k % 2 === 0) more.push(line(head, pick(), pick(), pick(), ops));
  }
  return { first, more };
}

/**
 * The commands of the bypass reports and their variants, adapted to the oracle's folder (relative paths; `touch` as
 * the program a value names, so running it shows as a write).
 */
export const ATTACKS: readonly string[] = [
  'sort -S 1 --compress-prog=touch data.txt', 'sort -S 1 --compress-program=touch data.txt', 'sort --compress-p=touch -S 1 big.txt',
  'sort --out=new.txt data.txt', 'sort --o=new.txt data.txt', 'sort --outp new.txt data.txt', 'sort -onew.txt data.txt', 'sort -ro new.txt data.txt',
  "git grep --no-index '-Otouch x;' -e hello", 'git grep --open-files-in-pag=touch -e hello', 'git grep --open=touch -e hello', 'git grep -Otouch -e hello',
  'git grep --open-files-in-pager=touch hello', 'git grep -O touch hello',
  'git remote show http://127.0.0.1:9/r.git', 'git remote show origin', 'git ls-remote http://127.0.0.1:9/r.git',
  'date --s=2020-01-01', 'date --se=2020-01-01', 'date --set 2020-01-01', 'date -s 2020-01-01', 'date -s2020-01-01', 'date -us 2020-01-01',
  'rg --hostname-bin=touch hello', 'rg --hostname-bin touch --hyperlink-format=default hello', 'rg --pre=touch hello', 'rg --pre touch hello .',
  'rg --pr=touch hello', 'rg -z hello', 'rg --search-z hello', 'rg --pre-glob=*.txt --pre touch hello',
  'tree -R -H . sub', 'tree -o new.txt', 'tree -onew.txt .',
  'file --comp -m m', 'file -C -m m', 'file --compile -m magic.txt', 'file -Cm m', 'file -f.env', 'file -f data.txt',
  'echo s | uniq - new.txt', 'uniq - new.txt', 'uniq data.txt new.txt', 'echo s | uniq -c - new.txt', 'uniq -- data.txt new.txt',
  'node version', 'make version', 'rm version', 'touch version', 'mkdir version', 'sh version', 'bash version', 'git version', 'rm --version', 'touch -V',
  'timeout --sig KILL 5 rm -f v', 'timeout -s KILL 5 rm -f version', 'nice --adj 5 rm version', 'nice -n 5 rm version', 'env --uns X rm version',
  'env --split-s="rm version"', 'stdbuf --o 0 rm version', 'time --for x rm version', 'flock --time 1 x rm version', 'xargs --max-a data.txt rm',
  'xargs -a .env echo', 'xargs --arg-file=.env echo', 'git -c alias.p=rm p', 'git -c alias.p=!touch p', 'git sync', 'git -c core.pager=touch log',
  'git cat-file -p HEAD:data.txt', 'git diff --cached', 'head /etc/shadow', 'date -f.env', 'date -f data.txt',
  'find . -fprint new.txt', 'find . -fprin new.txt', 'find . -delete', 'find sub -exec touch {} ;', 'find . -fls new.txt', 'find . -fprintf new.txt %p',
  'git log --output=new.txt', 'git log --outp=new.txt', 'git diff --output new.txt', 'git show --out=new.txt', 'git diff --ext-diff', 'git diff --ext',
  'git log -p --textconv', 'git show --textc HEAD', 'git cat-file --filters HEAD:data.txt', 'git cat-file --filt HEAD:data.txt',
  'git branch new', 'git branch -m renamed', 'git branch -d main', 'git tag v1', 'git tag -d v0', 'git config --get user.name x',
  'git config user.name x', 'git config --add x.y z', 'git remote add o x', 'git reflog delete HEAD@{0}', 'git reflog expire --all',
  'git blame --contents=new.txt data.txt', 'git log --no-textconv -p', 'git diff --no-textconv --no-ext-diff', 'git status --porcelain',
  'git status -uall', 'git rev-parse --git-path index', 'git describe --dirty', 'git describe --broken', 'git shortlog -s HEAD',
  'diff --to-file=new.txt data.txt', 'diff -r sub sub', 'cmp data.txt notes.md', 'comm data.txt notes.md', 'du -a .', 'df .',
  'grep -r hello .', 'grep hello -', 'cat - new.txt', 'head -c1 data.txt', 'tail -f data.txt', 'tail --pid=1 -f data.txt',
  'ls -R', 'ls --dired', 'stat -c %n data.txt', 'readlink -f link', 'realpath -e missing', 'nl -ba data.txt', 'tr a b', 'cut -d: -f1 data.txt',
  'which ls', 'whereis ls', 'type ls', 'id', 'whoami', 'uname -a', 'pwd -P', 'echo hello', 'true', 'false', 'docker ps', 'docker version', 'docker info',
];

/** The candidate commands in two tiers: every one `first` holds is tried; `more` is sampled to reach a run's size. */
export interface Candidates {
  /** The attacks, each program's operand lists, and every spelling of every option once. */
  readonly first: readonly string[];
  /** Every spelling with other operands, combinations of two and three options, pipelines and lists of two. */
  readonly more: readonly string[];
}

/**
 * Every candidate command, in a fixed order: the attacks, each program's help-derived commands, git's, then
 * pipelines and lists of two (`|`, `&&`, `;`, `||`). `seed` picks the combinations.
 */
export function candidates(seed = 23): Candidates {
  const next = random(seed);
  const first: string[] = [...ATTACKS];
  const more: string[] = [];
  const add = (part: { first: string[]; more: string[] }) => {
    first.push(...part.first);
    more.push(...part.more);
  };
  for (const program of PROGRAMS) {
    const text = program === 'type' || program === 'pwd' || program === 'echo' ? helpText(['bash', '-c', `help ${program}`]) : helpText([program, '--help']);
    add(programCommands([program], merged(helpOptions(text), grammarOptions(grammarOf(program))), OPERANDS, next));
  }
  add(programCommands(['git'], grammarOptions(GIT), [['status'], ['log', '-1'], ['version']], next));
  for (const words of GIT_SUBCOMMANDS) {
    const outer = grammarOf(words[0]!, GIT);
    const grammar = words.length > 1 ? grammarOf(words[1]!, outer) : outer;
    add(programCommands(['git', ...words], merged(helpOptions(helpText(['git', ...words, '-h'])), grammarOptions(grammar)), GIT_OPERANDS, next));
  }
  const singles = [...first, ...more];
  const joins = [' | ', ' && ', '; ', ' || '];
  for (let k = 0; k < 2_000; k++) {
    const a = singles[Math.floor(next() * singles.length)]!;
    const b = singles[Math.floor(next() * singles.length)]!;
    more.push(`${a}${joins[k % joins.length]!}${b}`);
  }
  const seen = new Set(first);
  return { first: [...seen], more: [...new Set(more)].filter((c) => !seen.has(c)) };
}

/** `count` of `items`, picked with `seed` in a fixed order (all of them when there are fewer). */
export function sample<T>(items: readonly T[], count: number, seed = 23): T[] {
  if (items.length <= count) return [...items];
  const next = random(seed);
  const pool = [...items];
  for (let k = pool.length - 1; k > 0; k--) {
    const j = Math.floor(next() * (k + 1));
    [pool[k], pool[j]] = [pool[j]!, pool[k]!];
  }
  return pool.slice(0, count);
}
