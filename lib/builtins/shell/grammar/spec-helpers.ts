import type { Effect, OperandKind, OperandSpec, OptionSpec, OptionValue, WrapperRole } from './grammar-types';

/**
 * One option of a data table: `short` its letters (`'cC'` for `-c` and `-C`), `long` its long names, `value` whether
 * it takes one, `effect` what it does (default `read-only`), `note` why when it does more than read.
 */
export function opt(short: string, long: readonly string[], value: OptionValue = 'none', effect: Effect = 'read-only', note?: string, role?: WrapperRole): OptionSpec {
  return Object.freeze({ short: Object.freeze([...short]), long: Object.freeze([...long]), value, effect, ...(note === undefined ? {} : { note }), ...(role === undefined ? {} : { role }) });
}

/** One operand of a data table; `repeat` when every further operand is of this kind. */
export function operand(name: string, kind: OperandKind, repeat = false, startsWith?: string): OperandSpec {
  return Object.freeze({ name, kind, ...(repeat ? { repeat } : {}), ...(startsWith === undefined ? {} : { startsWith }) });
}

/** `--help` and `--version`, which every GNU program takes and which only print. */
export const HELP_VERSION: readonly OptionSpec[] = [opt('', ['help']), opt('', ['version'])];
