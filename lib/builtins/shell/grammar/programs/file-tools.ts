import type { ProgramGrammar } from '../grammar-types';

/** Programs that describe files: file (file 5.44), tree (tree 2.1.0), find (GNU findutils 4.9.0). */
export const FILE_TOOLS: readonly ProgramGrammar[] = [];
