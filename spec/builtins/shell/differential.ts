/**
 * The parser differential by execution: for a corpus of tricky spellings, the programs a real shell executes
 * (`strace -f -e trace=execve`, in a throwaway folder whose PATH holds only stub programs linked to `true`, so nothing
 * real runs) against the programs the analysis reports. The analysis may report more, or say it cannot analyse the
 * command; it must never miss one. Used by parser-differential.spec.ts and scripts/shell-differential.sh.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { analyzeCommand, type ShellAnalysis, type ShellDialect } from '../../../lib/builtins/shell/analyze-command';

/** The stub programs on the PATH: every program the corpus names. */
export const STUBS = ['a', 'b', 'c', 'rm', 'touch', 'ls', 'cat', 'git', 'x', 'EOF', 'f', 'sh', 'bash'] as const;

/** The shells compared: the dialect each one is analysed in. */
export const SHELLS: ReadonlyArray<{ readonly path: string; readonly dialect: ShellDialect }> = [
  { path: '/bin/bash', dialect: 'bash' },
  { path: '/bin/sh', dialect: 'posix' },
];

/** Hand-written spellings, each hiding `rm` or `touch` somewhere the analysis must see. */
const SEEDS: readonly string[] = [
  "a $'\\' ; rm x ; #'",
  'a x &>/dev/null rm y',
  'a x &>>/dev/null rm y',
  'a |& rm',
  'cat <<< x; rm y',
  "cat <<E'O'F\nhi\nEOF\nrm x\nE'O'F\n",
  'cat <<"EOF"\n$(rm x)\nEOF\n',
  'cat <<EOF\n`rm x`\nEOF\n',
  'cat <<EOF\n$(rm x) ${y:-$(touch z)}\nEOF\n',
  'cat <<-EOF\n\t`rm x`\n\tEOF\n',
  'cat <<EOF\nx\nEOF \nrm y\nEOF\n',
  'cat <<\\EOF\n`rm x`\nEOF\n',
  'cat <<EOF; rm y\nbody\nEOF\n',
  'cat <<A <<B\nA\nrm x\nB\n',
  'a\rrm x',
  'a \\\nrm x',
  'a; r\\\nm x',
  "r''m x",
  '"rm" x',
  '\\rm x',
  "$'\\x72m' x",
  '$"rm" x',
  'IFS=x; a xrmx',
  'x=rm; $x y',
  '{rm,y}',
  'a {b,rm}',
  'a # ; rm x',
  'a #x\nrm y',
  'f() { rm x; }; f',
  'function f { rm x; }; f',
  'alias a=rm; a x',
  'shopt -s expand_aliases\nalias a=rm\na x',
  '[[ -n x ]] && rm y',
  '[ a == a ] && rm y',
  '((1)) && rm y',
  'a <(rm x)',
  'a $(rm x)',
  'a `rm x`',
  'a "$(rm x)"',
  'a ${x:-$(rm y)}',
  'a ${x/a/$(rm y)}',
  'arr=(a b); rm ${arr[1]}',
  'a=(rm x); "${a[@]}"',
  'select x in a; do rm y; break; done </dev/null',
  'coproc rm x',
  'declare -x y=1; rm z',
  'local y 2>/dev/null; rm z',
  'case x in x) rm y;& z) touch w;; esac',
  'eval "rm x"',
  'sh -c "rm x"',
  'bash -c \'touch y\'',
  'a && rm x || touch y',
  'a | rm x',
  '! rm x',
  '{ rm x; }',
  '(rm x)',
  'a & rm x',
  'time rm x',
  'command rm x',
  'exec rm x',
  'env rm x',
  'rm x 2>&1 >/dev/null',
  'a >&2 rm',
  'echo $((1+2)); rm x',
  'echo $[1+2]; rm x',
  'trap "rm x" EXIT',
  'a;;rm x',
  "a 'x\nrm y'",
  'a "x\nrm y"',
  'a\n\nrm x\n',
  'a ;\trm x',
  'PATH=/nonexistent; rm x',
  'read -r y <<< rm; $y z',
  'printf -v y rm; $y z',
  'set -- rm x; "$@"',
  'a\\;rm x',
  'a \\; rm x',
  "a '\\'' ; rm x",
  'a $\'\\\'\' ; rm x ; #\'',
  'a=1 rm x',
  'for i in 1; do rm x; done',
  'while false; do rm x; done; touch y',
  'if a; then rm x; else touch y; fi',
  'until a; do rm x; done',
];

/** Ways to put a seed inside a larger command: the spellings around it matter as much as the seed. */
const FRAMES: ReadonlyArray<(seed: string) => string> = [
  (s) => s,
  (s) => `a; ${s}`,
  (s) => `${s}\na`,
  (s) => `a && ${s}`,
  (s) => `a || ${s}`,
  (s) => `{ ${s}\n}`,
  (s) => `(${s}\n)`,
  (s) => `a | ${s}`,
  (s) => `\r${s}`,
  (s) => `a \\\n; ${s}`,
  (s) => `# c\n${s}`,
  (s) => `a $'\\'';' ; ${s}`,
];

/** The corpus: every seed in every frame (`frames` picks some by index: the spec's quicker sample). */
export function corpus(frames?: readonly number[]): string[] {
  const out = new Set<string>();
  const chosen = frames === undefined ? FRAMES : frames.map((k) => FRAMES[k]!);
  for (const seed of SEEDS) for (const frame of chosen) out.add(frame(seed));
  return [...out];
}

/** A throwaway folder with a `bin` of stubs (links to `true`) and a `work` folder to run in. */
export function stubFolder(): { root: string; bin: string; work: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'shell-differential-'));
  const bin = join(root, 'bin');
  const work = join(root, 'work');
  mkdirSync(bin);
  mkdirSync(work);
  const truePath = spawnSync('/bin/sh', ['-c', 'command -v true'], { encoding: 'utf8' }).stdout.trim();
  const real = truePath.startsWith('/') ? truePath : '/bin/true';
  for (const name of [...STUBS, MARK]) symlinkSync(real, join(bin, name));
  return { root, bin, work, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** strace's absolute path (the traced shell's PATH holds only stubs), or undefined. */
function stracePath(): string | undefined {
  const found = spawnSync('/bin/sh', ['-c', 'command -v strace'], { encoding: 'utf8' }).stdout.trim();
  return found.startsWith('/') ? found : undefined;
}

/** Whether strace can trace here, else why not. */
export function straceMissing(): string | undefined {
  const path = stracePath();
  if (path === undefined) return "strace is not installed; install it with 'apt-get install -y strace'.";
  const probe = spawnSync(path, ['-f', '-qq', '-e', 'trace=execve', '-o', '/dev/null', '/bin/true'], { stdio: 'ignore' });
  return probe.status === 0 ? undefined : `strace does not work here (${probe.error?.message ?? `exit ${String(probe.status)}`}); install it with 'apt-get install -y strace'.`;
}

/**
 * The names of the stub programs each `shell -c command` executed: one strace over a bash driver that runs the
 * commands one after another (each with its input from /dev/null, for at most 5 s), a marker program executed before
 * each one splitting the trace.
 */
export function executed(shell: string, commands: readonly string[], folder: { root: string; bin: string; work: string }): string[][] {
  const files = join(folder.root, 'commands');
  mkdirSync(files, { recursive: true });
  commands.forEach((command, n) => writeFileSync(join(files, String(n)), command));
  const timeout = spawnSync('/bin/sh', ['-c', 'command -v timeout'], { encoding: 'utf8' }).stdout.trim() || '/usr/bin/timeout';
  const driver = join(folder.root, 'driver.bash');
  writeFileSync(driver, [
    `for ((n = 0; n < ${commands.length}; n++)); do`,
    `  IFS= read -r -d '' command < ${JSON.stringify(files)}/$n`,
    `  ${JSON.stringify(join(folder.bin, MARK))} $n`,
    `  ${JSON.stringify(timeout)} 5 ${JSON.stringify(shell)} -c "$command" </dev/null >/dev/null 2>&1`,
    'done',
    '',
  ].join('\n'));
  const trace = join(folder.root, 'trace');
  spawnSync(stracePath() ?? 'strace', ['-f', '-qq', '-e', 'trace=execve', '-e', 'signal=none', '-o', trace, '/bin/bash', driver], {
    cwd: folder.work,
    env: { PATH: folder.bin, HOME: folder.work },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const runs: string[][] = commands.map(() => []);
  let current: string[] | undefined;
  for (const line of readFileSync(trace, 'utf8').split('\n')) {
    const open = line.indexOf('execve("');
    if (open < 0 || !line.trimEnd().endsWith('= 0')) continue;
    const path = line.slice(open + 8, line.indexOf('"', open + 8));
    if (!path.startsWith(`${folder.bin}/`)) continue;
    const name = basename(path);
    if (name === MARK) {
      const argv = line.slice(line.indexOf('[', open));
      const index = Number(argv.slice(argv.indexOf(',') + 1).trim().replace(/^"|"\].*$/g, ''));
      current = runs[index];
    } else current?.push(name);
  }
  rmSync(files, { recursive: true, force: true });
  rmSync(trace, { force: true });
  return runs;
}

/** The marker stub the driver executes before each command. */
const MARK = 'differential-mark';

/**
 * What the analysis reports for `command`: `unanalysable` (it asks, always acceptable), or the base names of every
 * program any view of any simple command names, with `anything` when one is known only at run time or opaque.
 */
export function reported(analysis: ShellAnalysis): { unanalysable: true } | { unanalysable: false; programs: Set<string>; anything: boolean } {
  if (analysis.unanalysable !== undefined) return { unanalysable: true };
  const programs = new Set<string>();
  let anything = false;
  for (const c of analysis.commands) {
    if (c.opaque) anything = true;
    for (const view of c.views) {
      const head = view[0];
      if (head === undefined) continue;
      if (!head.literal) anything = true;
      else programs.add(basename(head.text));
    }
    // A function or alias defined in the command runs its body under a new name: its body is reported already.
  }
  return { unanalysable: false, programs, anything };
}

/** One disagreement: a program that ran and that the analysis did not report. */
export interface Miss {
  readonly shell: string;
  readonly dialect: ShellDialect;
  readonly command: string;
  readonly ran: readonly string[];
  readonly reported: readonly string[];
}

/** Runs the whole corpus under every shell; returns the misses, how many runs were compared and how many commands asked. */
export async function differential(commands: readonly string[] = corpus()): Promise<{ misses: Miss[]; runs: number; unanalysable: number }> {
  const folder = stubFolder();
  const misses: Miss[] = [];
  let runs = 0;
  let unanalysable = 0;
  try {
    for (const shell of SHELLS) {
      const verdicts = await Promise.all(commands.map(async (command) => ({ command, verdict: reported(await analyzeCommand(command, { dialect: shell.dialect })) })));
      const analysed = verdicts.filter((v) => !v.verdict.unanalysable);
      unanalysable += verdicts.length - analysed.length;
      runs += analysed.length;
      const ran = executed(shell.path, analysed.map((v) => v.command), folder);
      analysed.forEach(({ command, verdict }, n) => {
        if (verdict.unanalysable || verdict.anything) return;
        const missed = ran[n]!.filter((name) => !verdict.programs.has(name));
        if (missed.length > 0) misses.push({ shell: shell.path, dialect: shell.dialect, command, ran: ran[n]!, reported: [...verdict.programs] });
      });
    }
  } finally {
    folder.remove();
  }
  return { misses, runs, unanalysable };
}
