import type { ProgramGrammar } from './grammar-types';
import { COREUTILS } from './programs/coreutils';
import { SEARCH } from './programs/search';
import { FILE_TOOLS } from './programs/file-tools';
import { GIT } from './programs/git';
import { OTHERS } from './programs/others';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  } else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) deepFreeze(v);
  return value;
}

/**
 * Every program the read-only verdict knows, with its grammar: its options (short letters, long names, whether each
 * takes a value, what it does: `read-only`, `reads-file`, `writes`, `runs`, `network`), its operands and what each is,
 * how it parses them, and the manual page and version the entry comes from (`sort(1), GNU coreutils 9.1`). A simple
 * command is read-only only when its program is here and every word parses to an option or operand that only reads
 * (see docs/shell-analysis.md, "Read-only programs"). git's subcommands are in its `subcommands`. Frozen, in the
 * order of the docs table.
 */
export const READ_ONLY_PROGRAMS: readonly ProgramGrammar[] = deepFreeze([...COREUTILS, ...SEARCH, ...FILE_TOOLS, GIT, ...OTHERS]);

const BY_NAME: ReadonlyMap<string, ProgramGrammar> = new Map(READ_ONLY_PROGRAMS.flatMap((g) => [g.name, ...(g.aliases ?? [])].map((n) => [n, g] as const)));

/** The grammar of the read-only program `name` (an alias such as `egrep` included), or undefined when it has none. */
export function programGrammar(name: string): ProgramGrammar | undefined {
  return BY_NAME.get(name);
}
