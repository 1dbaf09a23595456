import type { WrapperGrammar } from './grammar-types';

/**
 * Programs that run another command, with their grammars: the analysis finds the command each runs by parsing the
 * wrapper's words, abbreviations and glued values included; an option it does not know makes the command opaque.
 */
export const WRAPPER_GRAMMARS: readonly WrapperGrammar[] = [];
