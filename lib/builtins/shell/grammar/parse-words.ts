import type { ShellWord } from '../shell-word';
import type { OperandSpec, OptionSpec, ProgramGrammar } from './grammar-types';

/** One word (or a word and its value) as the program reads it. */
export type ParsedItem =
  | { readonly kind: 'option'; readonly option: OptionSpec; readonly spelled: string; readonly value: ShellWord | undefined; readonly negated: boolean; readonly at: number }
  | { readonly kind: 'operand'; readonly operand: OperandSpec; readonly word: ShellWord; readonly at: number };

/** What {@link parseWords} found: the items, and the first word the grammar cannot account for. */
export interface ParsedWords {
  readonly items: readonly ParsedItem[];
  /** Why a word does not parse (unknown or ambiguous option, surplus operand, missing value); undefined when all do. */
  readonly problem: string | undefined;
  /** Words known only at run time where an option may stand: their meaning is not known. */
  readonly dynamic: readonly ShellWord[];
  /** Index of the first word of a `command` operand (a wrapper's command), or undefined. */
  readonly commandAt: number | undefined;
}

/** The option a spelling names: its spec, the long name it resolved to, and whether it is a `--no-` negation. */
interface Resolved {
  readonly option: OptionSpec;
  readonly name: string;
  readonly negated: boolean;
}

/** A numeric option (`head -5`, `nice -10`): read-only, no value. */
const NUMERIC: OptionSpec = Object.freeze({ short: [], long: [], value: 'none', effect: 'read-only' });
/** find's operators: they combine primaries and do nothing of their own. */
const FIND_OPERATORS: ReadonlySet<string> = new Set(['(', ')', '!', ',', '-not', '-a', '-and', '-o', '-or']);
const FIND_OPERATOR: OptionSpec = Object.freeze({ short: [], long: [], value: 'none', effect: 'read-only' });

/**
 * Resolves a long option spelling (`name` without dashes and value) as getopt_long does (getopt(3)): an exact name
 * wins; otherwise every name it is a prefix of, and it is ambiguous when they belong to different options. With
 * `git`, `no-<name>` negates a long option (gitcli(7)), and its prefixes count too.
 */
export function resolveLong(grammar: ProgramGrammar, name: string): Resolved | 'ambiguous' | undefined {
  const git = grammar.syntax === 'git';
  let found: Resolved | undefined;
  let ambiguous = false;
  for (const option of grammar.options) {
    for (const long of option.long) {
      const spellings: [string, boolean][] = [[long, false]];
      if (git && !long.startsWith('no-')) spellings.push([`no-${long}`, true]);
      for (const [spelling, negated] of spellings) {
        if (spelling === name) return { option, name: long, negated };
        if (grammar.syntax === 'find' || !spelling.startsWith(name)) continue;
        if (found === undefined) found = { option, name: long, negated };
        else if (found.option !== option || found.negated !== negated) ambiguous = true;
      }
    }
  }
  return ambiguous ? 'ambiguous' : found;
}

function shortOption(grammar: ProgramGrammar, letter: string): OptionSpec | undefined {
  return grammar.options.find((o) => o.short.includes(letter));
}

/**
 * Parses `words` (the program's arguments, its name excluded) in `grammar`, as the program would. Parsing stops at
 * the first word it cannot account for (reported in `problem`) and at a `command` operand (`commandAt`). A word
 * known only at run time where an option may stand is collected in `dynamic` and skipped; a tilde word is an operand.
 */
export function parseWords(grammar: ProgramGrammar, words: readonly ShellWord[]): ParsedWords {
  const items: ParsedItem[] = [];
  const dynamic: ShellWord[] = [];
  let operands = 0;
  let options = grammar.syntax !== 'words';
  let expression = false;
  const result = (problem: string | undefined, commandAt?: number): ParsedWords => ({ items, problem, dynamic, commandAt });
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const text = word.text;
    const known = word.literal;
    if (!known && word.tilde !== true && options) {
      dynamic.push(word);
      continue;
    }
    const optionLike = known && options && text.length > 1 && text[0] === '-';
    if (known && options && text === '--' && grammar.syntax !== 'find') {
      options = false;
      continue;
    }
    if (grammar.syntax === 'find' && known && (expression || optionLike || FIND_OPERATORS.has(text))) {
      expression = true;
      if (FIND_OPERATORS.has(text)) {
        items.push({ kind: 'option', option: FIND_OPERATOR, spelled: text, value: undefined, negated: false, at: i });
        continue;
      }
      const found = optionLike ? resolveLong(grammar, text.slice(1)) : undefined;
      if (found === undefined || found === 'ambiguous') return result(`${text} is not a ${grammar.name} primary or option this table knows`);
      const value = found.option.value === 'required' ? words[++i] : undefined;
      if (found.option.value === 'required' && value === undefined) return result(`${text} needs a value`);
      items.push({ kind: 'option', option: found.option, spelled: text, value, negated: false, at: i });
      continue;
    }
    if (optionLike && text.startsWith('--')) {
      const eq = text.indexOf('=');
      const name = eq < 0 ? text.slice(2) : text.slice(2, eq);
      const found = resolveLong(grammar, name);
      if (found === 'ambiguous') return result(`--${name} is an ambiguous abbreviation`);
      if (found === undefined) return result(`--${name} is not an option of ${grammar.name} this table knows`);
      const { option, negated } = found;
      let value: ShellWord | undefined;
      if (negated || option.value === 'none') {
        if (eq >= 0) return result(`--${name} takes no value`);
      } else if (eq >= 0) value = { text: text.slice(eq + 1), literal: true, splits: false };
      else if (option.value === 'required') {
        value = words[++i];
        if (value === undefined) return result(`--${name} needs a value`);
      }
      items.push({ kind: 'option', option, spelled: `--${found.name}`, value, negated, at: i });
      continue;
    }
    if (optionLike) {
      if (grammar.numeric && /^-\d+$/.test(text)) {
        items.push({ kind: 'option', option: NUMERIC, spelled: text, value: undefined, negated: false, at: i });
        continue;
      }
      const at = i;
      for (let k = 1; k < text.length; k++) {
        const letter = text[k]!;
        const option = shortOption(grammar, letter);
        if (option === undefined) return result(`-${letter} is not an option of ${grammar.name} this table knows`);
        if (option.value === 'none') {
          items.push({ kind: 'option', option, spelled: `-${letter}`, value: undefined, negated: false, at });
          continue;
        }
        const rest = text.slice(k + 1);
        let value: ShellWord | undefined = rest === '' ? undefined : { text: rest, literal: true, splits: false };
        if (value === undefined && option.value === 'required') {
          value = words[++i];
          if (value === undefined) return result(`-${letter} needs a value`);
        }
        items.push({ kind: 'option', option, spelled: `-${letter}`, value, negated: false, at });
        break;
      }
      continue;
    }
    const operand = grammar.operands[operands] ?? (grammar.operands.at(-1)?.repeat ? grammar.operands.at(-1) : undefined);
    if (operand === undefined) return result(`${text} is an operand beyond ${grammar.name}'s ${grammar.operands.length}`);
    if (operand.kind === 'command') return result(undefined, i);
    if (grammar.syntax === 'find' && expression) return result(`${text} follows find's expression`);
    items.push({ kind: 'operand', operand, word, at: i });
    operands++;
    if (grammar.inOrder) options = false;
  }
  return result(undefined);
}
