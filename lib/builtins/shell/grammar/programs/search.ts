import type { ProgramGrammar } from '../grammar-types';
import { opt, operand } from '../spec-helpers';

/** Search programs: grep (GNU grep 3.8), diff (GNU diffutils 3.8), rg (ripgrep 13.0.0), ag (the silver searcher 2.2.0). */
export const SEARCH: readonly ProgramGrammar[] = [
  {
    name: 'grep',
    aliases: ['egrep', 'fgrep'],
    source: 'grep(1), GNU grep 3.8',
    syntax: 'gnu',
    numeric: true,
    options: [
      opt('E', ['extended-regexp']), opt('F', ['fixed-strings']), opt('G', ['basic-regexp']), opt('P', ['perl-regexp']), opt('e', ['regexp'], 'required'),
      opt('f', ['file'], 'required', 'reads-file'), opt('i', ['ignore-case']), opt('y', []), opt('', ['no-ignore-case']), opt('w', ['word-regexp']), opt('x', ['line-regexp']),
      opt('z', ['null-data']), opt('s', ['no-messages']), opt('v', ['invert-match']), opt('V', ['version']), opt('', ['help']), opt('m', ['max-count'], 'required'),
      opt('b', ['byte-offset']), opt('n', ['line-number']), opt('', ['line-buffered']), opt('H', ['with-filename']), opt('h', ['no-filename']), opt('', ['label'], 'required'),
      opt('o', ['only-matching']), opt('q', ['quiet', 'silent']), opt('', ['binary-files'], 'required'), opt('a', ['text']), opt('I', []), opt('d', ['directories'], 'required'),
      opt('D', ['devices'], 'required'), opt('r', ['recursive']), opt('R', ['dereference-recursive']), opt('', ['include'], 'required'), opt('', ['exclude'], 'required'),
      opt('', ['exclude-from'], 'required', 'reads-file'), opt('', ['exclude-dir'], 'required'), opt('L', ['files-without-match']), opt('l', ['files-with-matches']),
      opt('c', ['count']), opt('T', ['initial-tab']), opt('Z', ['null']), opt('B', ['before-context'], 'required'), opt('A', ['after-context'], 'required'),
      opt('C', ['context'], 'required'), opt('', ['group-separator'], 'required'), opt('', ['no-group-separator']), opt('', ['color', 'colour'], 'optional'), opt('U', ['binary']),
    ],
    operands: [operand('PATTERNS', 'pattern'), operand('FILE', 'read', true)],
  },
];
