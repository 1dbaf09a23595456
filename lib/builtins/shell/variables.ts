import type { ShellWord } from './shell-word';

/**
 * Variables that steer the shell or the programs it runs, each with why (bash(1) "Shell Variables", environ(7),
 * ld.so(8), git(1) "ENVIRONMENT VARIABLES", and each program's manual). Setting one, in front of a command or as a
 * statement of its own (`PATH=bin; ls`), can make a later command run code the model wrote; the analysis reports it
 * as an `assignment`. Every upper-case name outside {@link SAFE_VARIABLES} counts too: this table documents the
 * known reasons, it does not bound the rule.
 */
export const STEERING_VARIABLES: ReadonlyMap<string, string> = new Map([
  ['PATH', 'chooses the program every command name runs'],
  ['HOME', "locates per-user configuration that programs run code from (git's ~/.gitconfig, ~/.bashrc)"],
  ['IFS', 'changes how every unquoted expansion is split into words'],
  ['ENV', 'names a file a POSIX shell runs at start-up'],
  ['BASH_ENV', 'names a file every non-interactive bash runs at start-up'],
  ['CDPATH', 'changes the folder `cd` enters'],
  ['SHELLOPTS', 'turns on shell options in every bash started later'],
  ['BASHOPTS', 'turns on shopt options in every bash started later'],
  ['PS4', 'is expanded, substitutions included, before each traced command'],
  ['PROMPT_COMMAND', 'runs as a command before each prompt'],
  ['PAGER', 'names the program many tools run to show their output'],
  ['MANPAGER', 'names the program man runs'],
  ['EDITOR', 'names the program tools run to edit text'],
  ['VISUAL', 'names the program tools run to edit text'],
  ['LESSOPEN', 'names a program less runs on every file'],
  ['LESSCLOSE', 'names a program less runs after every file'],
  ['SHELL', 'names the shell programs start for sub-commands'],
  ['PYTHONPATH', 'adds modules python imports before the standard ones'],
  ['PYTHONSTARTUP', 'names a file python runs'],
  ['PERL5LIB', 'adds modules perl loads'],
  ['PERL5OPT', 'adds options, and code, to every perl'],
  ['RUBYOPT', 'adds options, and libraries, to every ruby'],
  ['RUBYLIB', 'adds libraries ruby loads'],
  ['NODE_OPTIONS', 'adds options, `--require` included, to every node'],
  ['NODE_PATH', 'adds modules node resolves'],
  ['http_proxy', 'sends the traffic of curl, wget and git through another host'],
  ['https_proxy', 'sends the traffic of curl, wget and git through another host'],
  ['ftp_proxy', 'sends ftp traffic through another host'],
  ['all_proxy', 'sends traffic through another host'],
  ['no_proxy', 'changes which hosts bypass the proxy'],
  ['TMPDIR', 'moves where programs write temporary files'],
  ['XDG_CONFIG_HOME', 'locates per-user configuration that programs run code from'],
]);

/** Name prefixes that steer programs, with why (git(1), ld.so(8), bash(1) for exported functions, dyld(1)). */
export const STEERING_PREFIXES: ReadonlyMap<string, string> = new Map([
  ['GIT_', 'git reads its configuration, hooks, pager, editor and ssh command from these (GIT_CONFIG_*, GIT_DIR, GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF)'],
  ['LD_', 'the dynamic loader loads libraries named here into every program (LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT)'],
  ['DYLD_', 'the macOS loader loads libraries named here'],
  ['BASH_FUNC_', 'bash imports these as functions'],
]);

/**
 * Environment variables that change no program's choice of code to run: locale, time zone, colour and terminal
 * settings, and common build flags. Any other assignment in front of a command keeps allow rules from covering it.
 */
export const SAFE_VARIABLES: ReadonlySet<string> = new Set([
  'LANG', 'LANGUAGE', 'LC_ALL', 'TZ', 'NO_COLOR', 'FORCE_COLOR', 'CLICOLOR', 'CLICOLOR_FORCE', 'TERM', 'COLUMNS', 'LINES',
  'CI', 'NODE_ENV', 'DEBUG', 'RUST_LOG', 'RUST_BACKTRACE', 'PYTHONUNBUFFERED', 'PYTHONDONTWRITEBYTECODE', 'GOOS', 'GOARCH',
  'CGO_ENABLED',
]);

/** Why setting `name` steers the shell or a program, or undefined when the table does not list it. */
export function steeringReason(name: string): string | undefined {
  const direct = STEERING_VARIABLES.get(name);
  if (direct !== undefined) return direct;
  for (const [prefix, reason] of STEERING_PREFIXES) if (name.startsWith(prefix)) return reason;
  return undefined;
}

/**
 * Whether setting `name` cannot change which code runs: not a steering variable ({@link STEERING_VARIABLES}), and
 * a safe-listed name, `LC_*`, or a lower-case shell variable (`f`, `msg`). Upper-case names are the environment's.
 */
export function isSafeVariable(name: string): boolean {
  if (!isName(name) || steeringReason(name) !== undefined) return false;
  if (SAFE_VARIABLES.has(name) || name.startsWith('LC_')) return true;
  return [...name].every((c) => (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c === '_');
}

export function isName(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    const letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
    if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return name.length > 0;
}

/** `set` options that change no command's meaning (bash(1), SHELL BUILTIN COMMANDS, `set`): exit and unset-variable checks, pipefail. */
const HARMLESS_SET_WORDS: ReadonlySet<string> = new Set(['-e', '+e', '-u', '+u', '-eu', '-ue', '-o', '+o', 'errexit', 'nounset', 'pipefail', '-euo', '-eo', '-uo']);

/**
 * Builtins that set variables named by their operands (bash(1), SHELL BUILTIN COMMANDS): `read NAME`, `mapfile
 * NAME`, `getopts OPTS NAME`, `printf -v NAME`, `wait -p NAME`.
 */
const NAMING_BUILTINS: ReadonlySet<string> = new Set(['read', 'mapfile', 'readarray', 'getopts', 'printf', 'wait']);

/**
 * Builtins that change how later commands are found or run: `hash -p FILE NAME` binds a name to a file, `enable -f`
 * loads a builtin from a library, `shopt` and `set` change the grammar and expansions (`set -k` puts every
 * `NAME=VALUE` argument in the environment).
 */
const STEERING_BUILTINS: ReadonlySet<string> = new Set(['hash', 'enable', 'shopt']);

/**
 * How a builtin run as `words` changes the shell's state: `arithmetic` when it evaluates a subscript or an
 * expression (`let`, `read 'a[$(cmd)]'`, `printf -v 'a[$(cmd)]'`, `test -v 'a[$(cmd)]'`: bash runs the
 * substitutions inside), `assignment` when it sets a variable that is not {@link isSafeVariable safe} (or one known
 * only at run time) or steers later commands (`hash`, `enable`, `shopt`, `set` beyond `-e`, `-u`, `-o pipefail`),
 * else undefined.
 */
export function builtinStateChange(program: string, words: readonly ShellWord[]): 'arithmetic' | 'assignment' | undefined {
  const args = words.slice(1);
  if (program === 'let') return 'arithmetic';
  const subscripted = (w: ShellWord) => !w.literal || w.text.includes('[');
  if ((program === 'test' || program === '[') && args.some((w, k) => w.literal && w.text === '-v' && args[k + 1] !== undefined && subscripted(args[k + 1]!))) return 'arithmetic';
  if (STEERING_BUILTINS.has(program)) return 'assignment';
  if (program === 'set') return args.every((w) => w.literal && HARMLESS_SET_WORDS.has(w.text)) ? undefined : 'assignment';
  if (!NAMING_BUILTINS.has(program)) return undefined;
  const names = namedVariables(program, args);
  if (names.some(subscripted)) return 'arithmetic';
  return names.every((w) => isSafeVariable(w.text)) ? undefined : 'assignment';
}

/** The operands a naming builtin assigns: after `-v`/`-p` for printf and wait, every non-option word otherwise (fail closed). */
function namedVariables(program: string, args: readonly ShellWord[]): ShellWord[] {
  const names: ShellWord[] = [];
  const flag = program === 'printf' ? 'v' : program === 'wait' ? 'p' : undefined;
  for (let k = 0; k < args.length; k++) {
    const w = args[k]!;
    if (!w.literal) {
      names.push(w);
      continue;
    }
    if (flag !== undefined) {
      if (w.text === `-${flag}`) {
        if (args[k + 1] !== undefined) names.push(args[k + 1]!);
        k++;
      } else if (w.text.startsWith(`-${flag}`)) names.push({ ...w, text: w.text.slice(2) });
      continue;
    }
    if (!w.text.startsWith('-')) names.push(w);
  }
  return names;
}
