import type { ProgramGrammar } from '../grammar-types';
import { opt, operand } from '../spec-helpers';

const BASH = 'bash(1), SHELL BUILTIN COMMANDS, GNU bash 5.2';

function docker(name: string, options: ProgramGrammar['options'], operands: ProgramGrammar['operands']): ProgramGrammar {
  return { name, source: `docker-${name}(1), Docker 28.2`, syntax: 'gnu', options: [...options, opt('', ['help'])], operands };
}

/** Shell built-ins, which, whereis, docker's listing subcommands, and node's version. */
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
  {
    name: 'docker',
    source: 'docker(1), Docker 28.2',
    syntax: 'gnu',
    note: 'global options (-H, --context, --config) are not listed: they choose another daemon',
    options: [opt('v', ['version']), opt('', ['help'])],
    operands: [operand('SUBCOMMAND', 'text', true)],
    subcommands: [
      docker('ps', [opt('a', ['all']), opt('f', ['filter'], 'required'), opt('', ['format'], 'required'), opt('n', ['last'], 'required'), opt('l', ['latest']), opt('', ['no-trunc']), opt('q', ['quiet']), opt('s', ['size'])], []),
      docker('images', [opt('a', ['all']), opt('', ['digests', 'no-trunc', 'tree']), opt('f', ['filter'], 'required'), opt('', ['format'], 'required'), opt('q', ['quiet'])], [operand('REPOSITORY', 'text')]),
      docker('inspect', [opt('f', ['format'], 'required'), opt('s', ['size']), opt('', ['type'], 'required')], [operand('NAME', 'text', true)]),
      docker('logs', [opt('', ['details']), opt('f', ['follow']), opt('', ['since', 'until'], 'required'), opt('n', ['tail'], 'required'), opt('t', ['timestamps'])], [operand('CONTAINER', 'text')]),
      docker('version', [opt('f', ['format'], 'required')], []),
      docker('info', [opt('f', ['format'], 'required')], []),
    ],
  },
  { name: 'node', source: 'node(1), Node.js 20', syntax: 'gnu', note: 'only its version: every other word runs code', options: [opt('v', ['version'])], operands: [] },
];
