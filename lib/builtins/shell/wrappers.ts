import { dynamicWord, literalWord, type ShellWord } from './shell-word';
import { isName } from './variables';

export { isSafeVariable } from './variables';

/**
 * How a command that runs another command takes its own options, from each program's manual page (env(1),
 * nice(1), nohup(1), timeout(1), stdbuf(1), chroot(8), ionice(1), setsid(1), taskset(1), chrt(1), flock(1),
 * xargs(1), sudo(8), doas(1), time(1), and bash(1) for `command`, `builtin` and `exec`).
 */
interface WrapperSpec {
  /** Options whose value is the next word unless attached (`-n 5`, `-n5`, `--adjustment=5`). */
  readonly valued?: readonly string[];
  /** Options that make it run a shell or a string we cannot see (`env -S`, `sudo -s`, `flock -c`). */
  readonly opaque?: readonly string[];
  /** Options after which no command is run (`ionice -p PID`). */
  readonly noCommand?: readonly string[];
  /** Options that make it write a file itself (`time -o FILE`): allow rules then stop at the wrapper. */
  readonly writes?: readonly string[];
  /** Words before the command that are not options (timeout's duration, chroot's new root). */
  readonly positionals?: number;
  /** Takes `NAME=VALUE` words before the command (env, sudo). */
  readonly assignments?: boolean;
  /** `-10` is an option (nice's old syntax). */
  readonly numericOptions?: boolean;
  /** Allow rules may look through it: it runs the command as this user, in this file system. */
  readonly transparent: boolean;
  /** It runs a shell when no command is given (chroot, sudo -i). */
  readonly defaultsToShell?: boolean;
  /** Words right after the positionals that make it run a shell string instead (`flock FILE -c CMD`). */
  readonly shellAfterPositionals?: readonly string[];
  /** It appends words read from its input (xargs); `replace` options put them inside the command. */
  readonly appends?: { readonly replace: readonly string[] };
}

const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map<string, WrapperSpec>([
  ['env', { valued: ['-u', '--unset', '-C', '--chdir', '--block-signal', '--default-signal', '--ignore-signal'], opaque: ['-S', '--split-string'], assignments: true, transparent: true }],
  ['command', { noCommand: ['-v', '-V'], transparent: true }],
  ['builtin', { transparent: true }],
  ['exec', { valued: ['-a'], transparent: true }],
  ['nice', { valued: ['-n', '--adjustment'], numericOptions: true, transparent: true }],
  ['nohup', { transparent: true }],
  ['timeout', { valued: ['-s', '--signal', '-k', '--kill-after'], positionals: 1, transparent: true }],
  ['stdbuf', { valued: ['-i', '-o', '-e', '--input', '--output', '--error'], transparent: true }],
  ['time', { valued: ['-f', '--format', '-o', '--output'], writes: ['-o', '--output'], transparent: true }],
  ['ionice', { valued: ['-c', '--class', '-n', '--classdata'], noCommand: ['-p', '--pid', '-P', '--pgid', '-u', '--uid'], transparent: true }],
  ['setsid', { transparent: true }],
  ['coproc', { transparent: true }],
  ['taskset', { noCommand: ['-p', '--pid'], positionals: 1, transparent: true }],
  ['chrt', { valued: ['-T', '--sched-runtime', '-P', '--sched-period', '-D', '--sched-deadline'], noCommand: ['-p', '--pid'], positionals: 1, transparent: true }],
  ['flock', { valued: ['-w', '--timeout', '-E', '--conflict-exit-code'], opaque: ['-c', '--command'], shellAfterPositionals: ['-c', '--command'], positionals: 1, transparent: true }],
  ['unbuffer', { transparent: true }],
  ['busybox', { transparent: true }],
  ['toybox', { transparent: true }],
  ['xargs', {
    valued: ['-a', '--arg-file', '-d', '--delimiter', '-E', '-I', '-L', '--max-lines', '-n', '--max-args', '-P', '--max-procs', '-s', '--max-chars', '--process-slot-var'],
    transparent: true,
    appends: { replace: ['-I', '-i', '--replace'] },
  }],
  ['chroot', { valued: ['--userspec', '--groups'], positionals: 1, transparent: false, defaultsToShell: true }],
  ['sudo', {
    valued: ['-u', '--user', '-g', '--group', '-C', '--close-from', '-D', '--chdir', '-h', '--host', '-p', '--prompt', '-r', '--role', '-t', '--type', '-T', '--command-timeout', '-U', '--other-user'],
    opaque: ['-s', '--shell', '-i', '--login', '-e', '--edit'],
    noCommand: ['-l', '--list', '-v', '--validate', '-k', '-K', '--reset-timestamp', '--remove-timestamp', '-V', '--version'],
    assignments: true,
    transparent: false,
  }],
  ['doas', { valued: ['-u', '-C'], opaque: ['-s'], transparent: false }],
]);

/** Programs that run shell code given inline or on their input: their code is analysed when it is literal, and no allow rule covers them. */
export const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'rbash', 'fish', 'csh', 'tcsh']);

/** One step of unwrapping: the command a wrapper runs. */
export interface Unwrapped {
  /** The inner command's words, or undefined when the wrapper runs none. */
  readonly inner: ShellWord[] | undefined;
  /** Where the inner command starts among the wrapper's words (their length when it is not among them: xargs's default echo). */
  readonly start: number;
  /** `NAME=VALUE` words the wrapper puts in the environment. */
  readonly assignments: readonly string[];
  /** Allow rules may look through this wrapper. */
  readonly transparent: boolean;
  /** The wrapper runs something the analysis cannot see (a shell, a split string, a word known at run time). */
  readonly opaque: boolean;
}

export function isWrapper(program: string): boolean {
  return WRAPPERS.has(program);
}

/**
 * The command `words` (a wrapper's words, the wrapper first) runs, with the wrapper's options skipped as its manual
 * describes. A word known only at run time before the command makes the step opaque.
 */
export function unwrap(words: readonly ShellWord[]): Unwrapped {
  const spec = WRAPPERS.get(words[0]!.text)!;
  const assignments: string[] = [];
  let transparent = spec.transparent;
  const opaque = (): Unwrapped => ({ inner: undefined, start: words.length, assignments, transparent: false, opaque: true });
  const none = (): Unwrapped => ({ inner: undefined, start: words.length, assignments, transparent, opaque: false });
  let replace: string | undefined;
  let i = 1;
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (!word.literal) return opaque();
    const text = word.text;
    if (text === '--') {
      i++;
      break;
    }
    if (text.length < 2 || text[0] !== '-') break;
    if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const name = eq < 0 ? text : text.slice(0, eq);
      if (spec.opaque?.includes(name)) return opaque();
      if (spec.noCommand?.includes(name)) return none();
      if (spec.writes?.includes(name)) transparent = false;
      if (spec.appends?.replace.includes(name)) replace = eq < 0 ? '{}' : text.slice(eq + 1);
      if (eq < 0 && spec.valued?.includes(name)) i++;
      continue;
    }
    // A cluster of short options: `-lc`, `-n5`, `-u root`.
    for (let k = 1; k < text.length; k++) {
      const c = text[k]!;
      const name = `-${c}`;
      if (spec.numericOptions && c >= '0' && c <= '9') break;
      if (spec.opaque?.includes(name)) return opaque();
      if (spec.noCommand?.includes(name)) return none();
      if (spec.writes?.includes(name)) transparent = false;
      if (spec.appends?.replace.includes(name)) {
        const attached = text.slice(k + 1);
        if (name === '-I' && attached === '') {
          const value = words[i + 1];
          if (value === undefined || !value.literal) return opaque();
          replace = value.text;
          i++;
        } else replace = attached === '' ? '{}' : attached;
        break;
      }
      if (spec.valued?.includes(name)) {
        if (k === text.length - 1) i++;
        break;
      }
    }
  }
  if (i > words.length) return opaque();
  if (spec.assignments) {
    for (; i < words.length; i++) {
      const word = words[i]!;
      if (!word.literal) return opaque();
      if (!isAssignment(word.text)) break;
      assignments.push(word.text);
    }
  }
  i += spec.positionals ?? 0;
  if (i > words.length) return none();
  const after = words[i];
  if (after !== undefined && spec.shellAfterPositionals !== undefined && (!after.literal || spec.shellAfterPositionals.includes(after.text))) return opaque();
  let inner = words.slice(i);
  if (inner.length === 0) {
    if (spec.defaultsToShell) return opaque();
    return spec.appends ? { inner: [literalWord('echo'), dynamicWord('<input>', true)], start: words.length, assignments, transparent, opaque: false } : none();
  }
  if (spec.appends) {
    const marker = replace;
    inner = marker === undefined ? [...inner, dynamicWord('<input>', true)] : inner.map((w) => (w.text.includes(marker) ? dynamicWord(w.text, false) : w));
  }
  return { inner, start: i, assignments, transparent, opaque: false };
}

/** Whether `text` is `NAME=VALUE` with a valid variable name. */
export function isAssignment(text: string): boolean {
  const eq = text.indexOf('=');
  return eq > 0 && isName(text.slice(0, eq));
}


/**
 * git's global options before its subcommand (git(1), OPTIONS): those that take a value, and those after which an
 * allow rule may still look through to the subcommand (they change no code git runs; `-c`, `--config-env`,
 * `--exec-path`, `--git-dir`, `--work-tree` can).
 */
const GIT_VALUED: ReadonlySet<string> = new Set(['-C', '-c', '--config-env', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--super-prefix', '--list-cmds', '--attr-source']);
const GIT_HARMLESS: ReadonlySet<string> = new Set(['-C', '--no-pager', '-P', '--paginate', '-p', '--no-optional-locks', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs', '--no-replace-objects', '--no-lazy-fetch', '--no-advice']);

/**
 * `git <global options> <subcommand> ...` as `git <subcommand> ...`, so `Bash(git push:*)` sees `git -C repo push`;
 * undefined when there is no global option (or a word known only at run time among them). `harmless`: allow rules
 * may judge this view. `aliases`: a `-c` or `--config-env` sets an alias or includes a configuration file (which may
 * set one), so the subcommand written may run another (`git -c alias.p=push p` pushes; git-config(1), `alias.*`,
 * `include.path`).
 */
export function gitSubcommandView(words: readonly ShellWord[]): { readonly view: ShellWord[]; readonly harmless: boolean; readonly aliases: boolean } | undefined {
  let harmless = true;
  let aliases = false;
  let i = 1;
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (!word.literal) return undefined;
    const text = word.text;
    if (text.length < 2 || text[0] !== '-') break;
    const eq = text.indexOf('=');
    const name = text.startsWith('-c') && !text.startsWith('--') ? '-c' : eq < 0 ? text : text.slice(0, eq);
    if (!GIT_HARMLESS.has(name)) harmless = false;
    const setting = name === '-c' ? (text.length > 2 ? text.slice(2) : words[i + 1]?.text) : name === '--config-env' ? (eq < 0 ? words[i + 1]?.text : text.slice(eq + 1)) : undefined;
    if (setting !== undefined && ALIAS_KEYS.some((k) => setting.toLowerCase().startsWith(k))) aliases = true;
    if (eq < 0 && GIT_VALUED.has(name) && !(name === '-c' && text.length > 2)) i++;
  }
  if (i === 1 || i >= words.length) return undefined;
  return { view: [words[0]!, ...words.slice(i)], harmless, aliases };
}

/** Configuration keys that define what a git subcommand name runs: aliases, and files included (which may hold aliases). */
const ALIAS_KEYS: readonly string[] = ['alias.', 'include.', 'includeif.'];
