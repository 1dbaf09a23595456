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

/**
 * Whether every option and operand of `grammar` only reads, so that a word known only at run time, which may become
 * any option or any number of operands, keeps it read-only.
 */
export function everyOptionHarmless(grammar: ProgramGrammar): boolean {
  let harmless = harmlessCache.get(grammar);
  if (harmless === undefined) {
    harmless = grammar.subcommands === undefined && grammar.requires === undefined && grammar.syntax !== 'find'
      && grammar.options.every((o) => HARMLESS_EFFECTS.has(o.effect))
      && grammar.operands.every((o) => HARMLESS_OPERANDS.has(o.kind) && o.startsWith === undefined);
    harmlessCache.set(grammar, harmless);
  }
  return harmless;
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

function present(items: readonly ParsedItem[], name: string): boolean {
  return items.some((i) => i.kind === 'option' && !i.negated && (name.startsWith('--') ? i.spelled === name : i.spelled === name));
}

/**
 * Whether `words` (the arguments after the program's name) keep `grammar`'s program read-only: every word parses to
 * an option or operand marked read-only (or reading a file), the options it requires are there, and a subcommand
 * (git's) is one the grammar knows, judged by its own grammar. A word known only at run time is allowed only when
 * every option and operand of the grammar is harmless ({@link everyOptionHarmless}).
 */
export function readOnlyVerdict(grammar: ProgramGrammar, words: readonly ShellWord[]): GrammarVerdict {
  const no = (reason: string): GrammarVerdict => ({ readOnly: false, reason });
  const harmless = everyOptionHarmless(grammar);
  if (!harmless) {
    const dynamic = words.find((w) => !w.literal && w.tilde !== true);
    if (dynamic !== undefined) return no(`${dynamic.text} is known only when it runs, and may become an option of ${grammar.name} that does not only read`);
  }
  const parsed = parseWords(grammar.subcommands === undefined ? grammar : { ...grammar, inOrder: true }, words);
  if (parsed.problem !== undefined && !(harmless && parsed.dynamic.length > 0)) return no(parsed.problem);
  for (const item of parsed.items) {
    if (grammar.subcommands !== undefined && item.kind === 'operand') break;
    const problem = itemProblem(item);
    if (problem !== undefined) return no(problem);
  }
  for (const required of grammar.requires ?? []) {
    const triggered = required.when === undefined || required.when.some((name) => parsed.items.some((i) => i.kind === 'option' && !i.negated && (i.spelled === name || (name.length === 2 && i.spelled === name))));
    if (triggered && !required.all.every((name) => present(parsed.items, `--${name}`) || parsed.items.some((i) => i.kind === 'option' && i.negated && `--no-${i.spelled.slice(2)}` === `--${name}`))) {
      return no(`${grammar.name} needs ${required.all.map((n) => `--${n}`).join(' and ')}: ${required.why}`);
    }
  }
  if (grammar.subcommands !== undefined) {
    const first = parsed.items.find((i) => i.kind === 'operand');
    if (first === undefined || first.kind !== 'operand') return no(`${grammar.name} without a subcommand this table knows`);
    const sub = grammar.subcommands.find((s) => s.name === first.word.text || s.aliases?.includes(first.word.text));
    if (sub === undefined) return no(`${grammar.name} ${first.word.text} is not a subcommand this table knows to only read (it may be an alias)`);
    return readOnlyVerdict(sub, words.slice(first.at + 1));
  }
  return { readOnly: true, reason: undefined };
}
