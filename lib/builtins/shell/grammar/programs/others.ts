import type { ProgramGrammar } from '../grammar-types';

/** Shell built-ins and other programs. */
export const OTHERS: readonly ProgramGrammar[] = [];
