import type { ShellWord } from '../shell-word';
import type { Effect, OperandKind, ProgramGrammar } from './grammar-types';
import { parseWords, type ParsedItem } from './parse-words';

/** What {@link readOnlyVerdict} decided. */
export interface GrammarVerdict {
  readonly readOnly: boolean;
  /** Why it is not read-only (the first word that makes it so). */
  readonly reason: string | undefined;
}

const HARMLESS_EFFECTS: ReadonlySet<Effect> = new Set(['read-only', 'reads-file']);
const HARMLESS_OPERANDS: ReadonlySet<OperandKind> = new Set(['read', 'pattern', 'text']);

const harmlessCache = new WeakMap<ProgramGrammar, boolean>();
const harmlessWithoutFileOptionsCache = new WeakMap<ProgramGrammar, boolean>();

/**
 * Whether every option and operand of `grammar` only reads, so that a word known only at run time, which may become
 * any option or any number of operands, keeps it read-only. With `fileOptions` false, an option that names a file to
 * read (`wc --files0-from=F`) is not harmless either: a glob that expands to such an option (a file named
 * `--files0-from=.env` beside `wc *.env`) names a file the credential check never saw.
 */
export function everyOptionHarmless(grammar: ProgramGrammar, fileOptions = true): boolean {
  const cache = fileOptions ? harmlessCache : harmlessWithoutFileOptionsCache;
  let harmless = cache.get(grammar);
  if (harmless === undefined) {
    harmless = grammar.subcommands === undefined && grammar.requires === undefined && grammar.syntax !== 'find'
      && grammar.options.every((o) => HARMLESS_EFFECTS.has(o.effect) && (fileOptions || o.effect !== 'reads-file'))
      && grammar.operands.every((o) => HARMLESS_OPERANDS.has(o.kind) && o.startsWith === undefined);
    cache.set(grammar, harmless);
  }
  return harmless;
}

/**
 * Whether a word known only at run time may expand to a word starting with `-`: any expansion or quote may, and so
 * may a glob or brace list at its start; a glob or brace list after a literal first character (`src/*.ts`, `./*`,
 * `a{b,c}`) expands to words that all start with that character.
 */
export function mayBecomeOption(word: ShellWord): boolean {
  if (word.literal || word.tilde === true) return false;
  const first = word.text[0];
  return first === undefined || /[$`]/.test(word.text) || '-*?[{"\'\\'.includes(first);
}

function itemProblem(item: ParsedItem): string | undefined {
  if (item.kind === 'operand') {
    const start = item.operand.startsWith;
    if (start !== undefined && !item.word.text.startsWith(start)) return `${item.word.text} is not a ${item.operand.name} operand: without a leading ${start} it sets state`;
    if (HARMLESS_OPERANDS.has(item.operand.kind)) return undefined;
    return `${item.word.text} is the ${item.operand.name} operand, which is ${item.operand.kind === 'written' ? 'written' : 'run'}`;
  }
  if (item.negated || HARMLESS_EFFECTS.has(item.option.effect)) return undefined;
  const what = item.option.effect === 'runs' ? 'runs a program' : item.option.effect === 'network' ? 'connects to the network' : 'writes';
  return `${item.spelled} ${what}${item.option.note === undefined ? '' : ` (${item.option.note})`}`;
}

/** Whether an option item answers to `name`: one of its letters or long names, `--no-<name>` when negated. */
function answers(item: ParsedItem, name: string): boolean {
  if (item.kind !== 'option') return false;
  if (item.negated) return name.startsWith('--no-') && item.option.long.includes(name.slice(5));
  if (name === item.spelled) return true;
  return name.startsWith('--') ? item.option.long.includes(name.slice(2)) : name.length === 2 && item.option.short.includes(name[1]!);
}

function requirementProblem(grammar: ProgramGrammar, items: readonly ParsedItem[]): string | undefined {
  if (grammar.requires === undefined) return undefined;
  const has = (name: string) => items.some((i) => answers(i, name) || (i.kind === 'operand' && i.operand.name === name));
  for (const required of grammar.requires) {
    if (required.when !== undefined && !required.when.some(has)) continue;
    const missing = required.all.filter((name) => !has(name));
    if (missing.length > 0) return `${grammar.name} needs ${missing.join(' and ')}: ${required.why}`;
    if (required.any !== undefined && !required.any.some(has)) return `${grammar.name} needs one of ${required.any.join(', ')}: ${required.why}`;
  }
  return undefined;
}

/**
 * A value taken from the next word (`--author --output=x`) that the program may not take as one: when the word
 * itself spells an option that does more than read, the command is not judged read-only (git's revision parser takes
 * some values only glued, and then reads that word as the option).
 */
function separateValueProblem(grammar: ProgramGrammar, item: ParsedItem): string | undefined {
  if (item.kind !== 'option' || item.value === undefined || !item.value.literal || !item.value.text.startsWith('-') || item.value.text.length < 2) return undefined;
  const alone = parseWords(grammar, [item.value], false);
  if (alone.problem !== undefined) return undefined;
  for (const other of alone.items) {
    const problem = itemProblem(other);
    if (problem !== undefined) return `${item.value.text}, the value of ${item.spelled}, may be read as an option: ${problem}`;
  }
  return undefined;
}

/**
 * Whether `words` (the arguments after the program's name) keep `grammar`'s program read-only: every word parses to
 * an option or operand marked read-only (or reading a file), the options it requires are there, and a subcommand
 * (git's) is one the grammar knows, judged by its own grammar. A word known only at run time is allowed only when
 * every option and operand of the grammar is harmless ({@link everyOptionHarmless}).
 */
export function readOnlyVerdict(grammar: ProgramGrammar, words: readonly ShellWord[]): GrammarVerdict {
  const no = (reason: string): GrammarVerdict => ({ readOnly: false, reason });
  const harmless = everyOptionHarmless(grammar, !words.some(mayBecomeOption));
  if (!harmless) {
    const dynamic = words.find((w) => !w.literal && w.tilde !== true);
    if (dynamic !== undefined) return no(`${dynamic.text} is known only when it runs, and may become an option of ${grammar.name} that does not only read`);
  }
  const parsed = parseWords(grammar, words, grammar.subcommands !== undefined || grammar.inOrder === true);
  if (parsed.problem !== undefined && !(harmless && parsed.dynamic.length > 0)) return no(parsed.problem);
  // With subcommands, the parent's options stop at the subcommand's name (the rest is the subcommand's).
  const first = grammar.subcommands === undefined ? undefined : parsed.items.find((i) => i.kind === 'operand');
  const own = first === undefined ? parsed.items : parsed.items.slice(0, parsed.items.indexOf(first));
  for (const item of own) {
    const problem = itemProblem(item) ?? separateValueProblem(grammar, item);
    if (problem !== undefined) return no(problem);
  }
  const missing = requirementProblem(grammar, own);
  if (missing !== undefined) return no(missing);
  if (first !== undefined && first.kind === 'operand' && grammar.subcommands !== undefined) {
    const sub = grammar.subcommands.find((s) => s.name === first.word.text || s.aliases?.includes(first.word.text));
    if (sub === undefined) return no(`${grammar.name} ${first.word.text} is not a subcommand this table knows to only read (it may be an alias)`);
    return readOnlyVerdict(sub, words.slice(first.at + 1));
  }
  return { readOnly: true, reason: undefined };
}
