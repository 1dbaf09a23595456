/**
 * The grammar data checked against the programs installed here: every option a program's `--help` lists is in its
 * grammar with the same value kind (none, required, optional). A value kind wrong in the data could hide an option
 * (`-Xo/x` read as `-X` with the value `o/x`). A program that is not installed is skipped.
 */
import { spawnSync } from 'node:child_process';
import { READ_ONLY_PROGRAMS, WRAPPER_GRAMMARS, type OptionValue, type ProgramGrammar } from '../../../lib/builtins';

interface HelpOption {
  readonly spelling: string;
  readonly value: OptionValue;
}

/** Options of a `--help` text: lines starting with `-x, --name[=VALUE]`. */
function helpOptions(text: string): HelpOption[] {
  const found: HelpOption[] = [];
  for (const line of text.split('\n')) {
    const head = /^\s{1,8}(-[^\s].*?)(?:\s{2,}|$)/.exec(line);
    if (head === null) continue;
    const parts = head[1]!.split(/,\s*/);
    const value: OptionValue = /\[=/.test(head[1]!) || /-[A-Za-z0-9]\[/.test(head[1]!) ? 'optional' : /=\S| [A-Z<]/.test(head[1]!) ? 'required' : 'none';
    for (const part of parts) {
      const m = /^(--?[A-Za-z0-9][\w-]*)/.exec(part.trim());
      if (m !== null) found.push({ spelling: m[1]!, value });
    }
  }
  return found;
}

function grammarValue(g: ProgramGrammar, spelling: string): OptionValue | undefined {
  const o = spelling.startsWith('--') ? g.options.find((x) => x.long.includes(spelling.slice(2))) : g.options.find((x) => x.short.includes(spelling.slice(1)));
  return o?.value;
}

/** Programs whose `--help` text this parser reads. */
const CHECKED: readonly string[] = ['ls', 'cat', 'head', 'tail', 'wc', 'basename', 'dirname', 'realpath', 'readlink', 'du', 'df', 'comm', 'cut', 'tr', 'nl', 'id', 'uname', 'uniq', 'date', 'sort', 'grep', 'diff', 'cmp', 'file', 'timeout', 'nice', 'env', 'stdbuf', 'xargs', 'flock', 'ionice', 'chrt', 'setsid', 'taskset', 'chroot', 'nohup'];
/** Spellings whose help line the parser misreads, by program, each with why. */
const MISREAD: Readonly<Record<string, readonly string[]>> = {
  // "-c  --check, --check=diagnose-first": -c takes no value, --check an optional one.
  sort: ['-c', '-C', '--check'],
  // "-c, -C, --context[=NUM]" and "-u, -U NUM, --unified[=NUM]": the short letters take no value or a required one.
  diff: ['-c', '-C', '-u', '-U', '--GTYPE-group-format', '--LTYPE-line-format', '-NUM'],
  // "-F, --classify[=WHEN]" is optional; "-p, --indicator-style=slash" names a value, not a value taken.
  ls: ['-p'],
  grep: ['-NUM'],
  // "-i, --replace[=R]", "-l[MAX-LINES]", "-e, --eof[=END]": the short letters take their value only glued.
  xargs: ['-i', '-l', '-e'],
  // "-P, --parameter" shows no value, but file takes one (`-P name=value`, file(1)).
  file: ['-P', '--parameter'],
  // tail's "-f, --follow[={name|descriptor}]": -f takes no value.
  tail: ['-f'],
  // du's "--time" is listed twice: alone and with "=WORD".
  du: ['--time'],
  // "-M  from first to M'th ... field" describes a range, not an option.
  cut: ['-M'],
};

const all = new Map<string, ProgramGrammar>([...READ_ONLY_PROGRAMS, ...WRAPPER_GRAMMARS].map((g) => [g.name, g]));
const git = all.get('git')!;

/** git subcommands built on parse-options, whose `-h` lists their options (git 2.39). */
const GIT_CHECKED = ['grep', 'status', 'ls-files', 'ls-tree', 'cat-file', 'describe', 'blame', 'branch', 'tag', 'config'];
const GIT_MISREAD: Readonly<Record<string, readonly string[]>> = {
  // "-NUM" is the numeric context, "-h" is the no-filename option where `-h` is also the usage.
  grep: ['-NUM'],
  // "--path blob|tree" names its value in lower case.
  'cat-file': ['--path'],
};

describe.each(GIT_CHECKED)('git %s', (name) => {
  const sub = git.subcommands!.find((s) => s.name === name)!;
  const help = spawnSync('git', [name, '-h'], { encoding: 'utf8' });
  (help.error === undefined ? it : it.skip)(`lists every option of git ${name} -h with its value kind`, () => {
    const misread = new Set(GIT_MISREAD[name] ?? []);
    const wrong = helpOptions(`${help.stdout}${help.stderr}`)
      .filter((o) => !misread.has(o.spelling))
      .filter((o) => grammarValue(sub, o.spelling) !== o.value)
      .map((o) => `${o.spelling}: help ${o.value}, grammar ${grammarValue(sub, o.spelling) ?? 'missing'}`);
    expect(wrong).toEqual([]);
  });
});

describe.each(CHECKED)('%s', (name) => {
  const grammar = all.get(name)!;
  const help = spawnSync(name, ['--help'], { encoding: 'utf8' });
  const installed = help.error === undefined;

  (installed ? it : it.skip)(`lists every option of ${name} --help with its value kind`, () => {
    const misread = new Set(MISREAD[name] ?? []);
    const wrong = helpOptions(`${help.stdout}${help.stderr}`)
      .filter((o) => !misread.has(o.spelling))
      .filter((o) => grammarValue(grammar, o.spelling) !== o.value)
      .map((o) => `${o.spelling}: help ${o.value}, grammar ${grammarValue(grammar, o.spelling) ?? 'missing'}`);
    expect(wrong).toEqual([]);
  });
});
