/**
 * The shape of a program's command-line grammar: its options, its operands and how it parses them, each entry with
 * the manual page it comes from. The read-only verdict, the wrappers' unwrapping and the docs table are all read
 * from data of this shape.
 */

/**
 * What an option or operand does when the program runs. `read-only`: nothing beyond reading its input and the files
 * it names as input; `reads-file`: the value or operand is a file the program reads (read-only, but the credential
 * check judges it); `writes`: it writes or creates a file or changes system state (the clock); `runs`: it runs a
 * program or shell code; `network`: it connects somewhere.
 */
export type Effect = 'read-only' | 'reads-file' | 'writes' | 'runs' | 'network';

/**
 * Whether an option takes a value. `required`: glued (`-ofile`, `--output=file`) or the next word (`-o file`,
 * `--output file`); `optional`: only glued (`--color=always`, `-U5`), a separate word is an operand.
 */
export type OptionValue = 'none' | 'required' | 'optional';

/**
 * What a wrapper's option does to the command it runs. `no-command`: it runs none (`ionice -p PID`); `replace`:
 * xargs puts its input inside the command's words (`-I {}`); `user`: the command runs as another user or root, so
 * allow rules stop at the wrapper; `chdir`: the command runs in another folder or root (`env -C DIR`), where the paths
 * it names are other files, so allow rules and the working-directory allowance stop at the wrapper.
 */
export type WrapperRole = 'no-command' | 'replace' | 'user' | 'chdir';

/** One option, with all its spellings. */
export interface OptionSpec {
  /** Its short letters (`['o']` for `-o`); single-dash long options of `find` style are in {@link long}. */
  readonly short: readonly string[];
  /** Its long names without the leading dashes (`['output']` for `--output`). */
  readonly long: readonly string[];
  readonly value: OptionValue;
  readonly effect: Effect;
  /** For wrappers: what the option does to the wrapped command. */
  readonly role?: WrapperRole;
  /** Why the effect is not `read-only`, from the manual. */
  readonly note?: string;
}

/**
 * What an operand is. `read`: a file read (`-` is the standard input); `written`: a file written; `pattern`: a
 * search pattern or expression; `text`: a value that names no file (a format, a duration, a name); `command`: the
 * program to run and its arguments (every word from there on).
 */
export type OperandKind = 'read' | 'written' | 'pattern' | 'text' | 'command';

/** One operand position. */
export interface OperandSpec {
  /** Its name in the synopsis (`INPUT`, `FILE`). */
  readonly name: string;
  readonly kind: OperandKind;
  /** It may repeat (`FILE...`): every further operand is of this kind. Only the last operand repeats. */
  readonly repeat?: boolean;
  /** The operand only reads when it starts with this (date's `+FORMAT`; `date 0101` sets the clock): otherwise it writes. */
  readonly startsWith?: string;
}

/**
 * How the program reads its words. `gnu`: GNU getopt_long (getopt(3)): clusters `-abc`, glued short values
 * `-ofile`, `--opt=value`, any unambiguous prefix of a long option (`--comp` for `--compress-program`), `--` ends the
 * options, options may follow operands unless {@link ProgramGrammar.inOrder}; `git`: git's parse-options
 * (gitcli(7)): the same, plus `--no-<name>` negations of long options; `find`: find(1)'s expression, single-dash
 * primaries matched exactly, each with a fixed count of value words; `words`: no option parsing, every word is an
 * operand (echo's few options among them).
 */
export type OptionSyntax = 'gnu' | 'git' | 'find' | 'words';

/**
 * Options needed for the command to stay read-only, when a trigger is there (or always, without triggers): `git
 * diff` runs a repository's diff drivers unless given `--no-textconv` and `--no-ext-diff`; `git branch NAME` creates
 * a branch unless given `--list`. Options are spelled with their dashes (`--no-textconv`, `-n`; a short option is
 * matched by its letter, a long one by its name, an abbreviation counting as the name).
 */
export interface RequiredOptions {
  /** Options that must all appear. */
  readonly all: readonly string[];
  /** Options of which one at least must appear. */
  readonly any?: readonly string[];
  /** What makes it required: options (`-p`, `--patch`) or operand names (`PATTERN`); absent: always. */
  readonly when?: readonly string[];
  readonly why: string;
}

/** A program's grammar: the knowledge the read-only verdict uses, kept as data with its source. */
export interface ProgramGrammar {
  /** The program's name as the shell finds it on PATH (`sort`), or the subcommand's (`log` under `git`). */
  readonly name: string;
  /** Other names for the same grammar (`egrep`, `fgrep` for `grep`). */
  readonly aliases?: readonly string[];
  /** The manual page and version the entry comes from: `sort(1), GNU coreutils 9.1`. */
  readonly source: string;
  readonly syntax: OptionSyntax;
  readonly options: readonly OptionSpec[];
  /** The operands in order; a word beyond them (and no repeating last one) is a surplus operand. */
  readonly operands: readonly OperandSpec[];
  /** Options stop at the first operand (getopt's `+` mode: the wrappers, whose operands are a command). */
  readonly inOrder?: boolean;
  /** `-<digits>` is an option (`head -5`, `nice -10`), with this effect. */
  readonly numeric?: boolean;
  /** Options needed for the command to stay read-only. */
  readonly requires?: readonly RequiredOptions[];
  /** Subcommands (git's), chosen by the first operand; a name not among them is never read-only. */
  readonly subcommands?: readonly ProgramGrammar[];
  /** Why the program is in the table, or what it leaves out, for the docs. */
  readonly note?: string;
}

/** A program that runs another command (`timeout`, `env`, `xargs`), described with the same grammar. */
export interface WrapperGrammar extends ProgramGrammar {
  /** Allow rules may look through it: it runs the command as this user, in this file system. */
  readonly transparent: boolean;
  /** It takes `NAME=VALUE` words before the command (env, sudo). */
  readonly assignments?: boolean;
  /** It runs a shell when no command is given (chroot, `sudo -i`). */
  readonly defaultsToShell?: boolean;
  /** Words right after the operands before the command that make it run a shell string instead (`flock FILE -c CMD`). */
  readonly shellAfterOperands?: readonly string[];
  /** It appends words read from its input to the command (xargs), and runs `echo` when given none. */
  readonly appends?: boolean;
}
