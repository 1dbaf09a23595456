import type { ProgramGrammar } from '../grammar-types';

/** git 2.39 (git(1)): its global options, and the subcommands that only read, each with its own grammar. */
export const GIT: ProgramGrammar = { name: 'git', source: 'git(1), git 2.39.5', syntax: 'git', options: [], operands: [], subcommands: [] };
