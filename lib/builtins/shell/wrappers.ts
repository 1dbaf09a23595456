import { dynamicWord, literalWord, type ShellWord } from './shell-word';
import { isName } from './variables';
import type { WrapperGrammar } from './grammar/grammar-types';
import { WRAPPER_GRAMMARS } from './grammar/wrapper-grammars';
import { parseWords } from './grammar/parse-words';

export { isSafeVariable } from './variables';

const WRAPPERS: ReadonlyMap<string, WrapperGrammar> = new Map(WRAPPER_GRAMMARS.map((g) => [g.name, g]));

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
  /** The wrapper runs something the analysis cannot see (a shell, a split string, a word known at run time, an option its grammar does not know). */
  readonly opaque: boolean;
  /** Files the wrapper reads itself (`xargs -a FILE`, `--arg-file=FILE`): the values of its `reads-file` options. */
  readonly reads: readonly ShellWord[];
}

export function isWrapper(program: string): boolean {
  return WRAPPERS.has(program);
}

/**
 * The command `words` (a wrapper's words, the wrapper first) runs, found by parsing the wrapper's words in its
 * grammar ({@link WRAPPER_GRAMMARS}): options by any unambiguous abbreviation and with glued values, then its
 * operands (timeout's duration, flock's file), then `NAME=VALUE` words where it takes them. An option the grammar
 * does not know, an ambiguous abbreviation, an option that runs a string (`env -S`) or a word known only at run time
 * before the command makes the step opaque.
 */
export function unwrap(words: readonly ShellWord[]): Unwrapped {
  const grammar = WRAPPERS.get(words[0]!.text)!;
  const assignments: string[] = [];
  const reads: ShellWord[] = [];
  let transparent = grammar.transparent;
  const opaque = (): Unwrapped => ({ inner: undefined, start: words.length, assignments, transparent: false, opaque: true, reads });
  const none = (): Unwrapped => ({ inner: undefined, start: words.length, assignments, transparent, opaque: false, reads });
  const parsed = parseWords(grammar, words.slice(1));
  if (parsed.problem !== undefined || parsed.dynamic.length > 0) return opaque();
  let replace: string | undefined;
  for (const item of parsed.items) {
    if (item.kind === 'operand') {
      if (!item.word.literal) return opaque();
      continue;
    }
    const { option, value } = item;
    if (option.effect === 'runs') return opaque();
    if (option.role === 'no-command') return none();
    if (option.effect === 'writes' || option.role === 'user' || option.role === 'chdir') transparent = false;
    if (option.effect === 'reads-file' && value !== undefined) reads.push(value);
    if (option.role === 'replace') {
      if (value !== undefined && !value.literal) return opaque();
      replace = value?.text ?? '{}';
    }
  }
  let i = parsed.commandAt === undefined ? words.length : parsed.commandAt + 1;
  if (grammar.assignments) {
    for (; i < words.length; i++) {
      const word = words[i]!;
      if (!word.literal) return opaque();
      if (!isAssignment(word.text)) break;
      assignments.push(word.text);
    }
  }
  const after = words[i];
  if (after !== undefined && grammar.shellAfterOperands !== undefined && (!after.literal || after.text.startsWith('-'))) return opaque();
  let inner = words.slice(i);
  if (inner.length === 0) {
    if (grammar.defaultsToShell) return opaque();
    const operands = parsed.items.filter((p) => p.kind === 'operand').length;
    // A wrapper missing the operands before its command (`timeout` alone) runs nothing.
    if (operands < grammar.operands.length - 1) return none();
    return grammar.appends ? { inner: [literalWord('echo'), dynamicWord('<input>', true)], start: words.length, assignments, transparent, opaque: false, reads } : none();
  }
  if (grammar.appends) {
    const marker = replace;
    inner = marker === undefined ? [...inner, dynamicWord('<input>', true)] : inner.map((w) => (w.text.includes(marker) ? dynamicWord(w.text, false) : w));
  }
  return { inner, start: i, assignments, transparent, opaque: false, reads };
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
 * may judge this view.
 */
export function gitSubcommandView(words: readonly ShellWord[]): { readonly view: ShellWord[]; readonly harmless: boolean } | undefined {
  let harmless = true;
  let i = 1;
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (!word.literal) return undefined;
    const text = word.text;
    if (text.length < 2 || text[0] !== '-') break;
    const eq = text.indexOf('=');
    const name = eq < 0 ? text : text.slice(0, eq);
    if (!GIT_HARMLESS.has(name)) harmless = false;
    if (eq < 0 && GIT_VALUED.has(name)) i++;
  }
  if (i === 1 || i >= words.length) return undefined;
  return { view: [words[0]!, ...words.slice(i)], harmless };
}
