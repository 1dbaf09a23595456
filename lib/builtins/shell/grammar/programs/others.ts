import type { ProgramGrammar } from '../grammar-types';
import { opt, operand } from '../spec-helpers';

const BASH = 'bash(1), SHELL BUILTIN COMMANDS, GNU bash 5.2';

/**
 * Shell built-ins, which, whereis, and node's version. docker has no grammar: each of its commands connects to a
 * daemon (`/var/run/docker.sock` or `DOCKER_HOST`), and its client runs credential helpers and plugins.
 */
export const OTHERS: readonly ProgramGrammar[] = [
  { name: 'echo', source: BASH, syntax: 'words', options: [], operands: [operand('STRING', 'text', true)], note: '-n, -e and -E are words like the others' },
  { name: 'true', aliases: ['false', ':'], source: BASH, syntax: 'words', options: [], operands: [operand('ARG', 'text', true)] },
  { name: 'type', source: BASH, syntax: 'gnu', options: [opt('a', []), opt('f', []), opt('p', []), opt('t', []), opt('P', [])], operands: [operand('NAME', 'text', true)] },
  { name: 'which', source: 'which(1), debianutils 5.7', syntax: 'gnu', options: [opt('a', []), opt('s', [])], operands: [operand('PROGRAM', 'text', true)] },
  {
    name: 'whereis',
    source: 'whereis(1), util-linux 2.38.1',
    syntax: 'gnu',
    options: [opt('b', []), opt('m', []), opt('s', []), opt('u', []), opt('l', []), opt('g', []), opt('h', ['help']), opt('V', ['version'])],
    operands: [operand('NAME', 'text', true)],
  },
  { name: 'node', source: 'node(1), Node.js 20', syntax: 'gnu', note: 'only its version: every other word runs code', options: [opt('v', ['version'])], operands: [] },
];
