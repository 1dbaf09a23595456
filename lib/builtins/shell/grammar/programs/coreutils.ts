import type { ProgramGrammar } from '../grammar-types';
import { HELP_VERSION, opt, operand } from '../spec-helpers';

const CU = 'GNU coreutils 9.1';
const FILES = [operand('FILE', 'read', true)];

function gnu(name: string, page: string, options: ProgramGrammar['options'], operands: ProgramGrammar['operands'] = FILES, extra: Partial<ProgramGrammar> = {}): ProgramGrammar {
  return Object.freeze({ name, source: `${page}, ${CU}`, syntax: 'gnu', options: Object.freeze([...options, ...HELP_VERSION]), operands: Object.freeze([...operands]), ...extra });
}

/** GNU coreutils programs that only read, each from its manual page and `--help` (checked against coreutils 9.1). */
export const COREUTILS: readonly ProgramGrammar[] = [
  gnu('ls', 'ls(1)', [
    opt('a', ['all']), opt('A', ['almost-all']), opt('', ['author']), opt('b', ['escape']), opt('', ['block-size'], 'required'),
    opt('B', ['ignore-backups']), opt('c', []), opt('C', []), opt('', ['color', 'colour'], 'optional'), opt('d', ['directory']), opt('D', ['dired']),
    opt('f', []), opt('F', ['classify'], 'optional'), opt('', ['file-type']), opt('', ['format'], 'required'), opt('', ['full-time']), opt('g', []),
    opt('', ['group-directories-first']), opt('G', ['no-group']), opt('h', ['human-readable']), opt('', ['si']), opt('H', ['dereference-command-line']),
    opt('', ['dereference-command-line-symlink-to-dir']), opt('', ['hide'], 'required'), opt('', ['hyperlink'], 'optional'), opt('', ['indicator-style'], 'required'),
    opt('i', ['inode']), opt('I', ['ignore'], 'required'), opt('k', ['kibibytes']), opt('l', []), opt('L', ['dereference']), opt('m', []),
    opt('n', ['numeric-uid-gid']), opt('N', ['literal']), opt('o', []), opt('p', []), opt('q', ['hide-control-chars']), opt('', ['show-control-chars']),
    opt('Q', ['quote-name']), opt('', ['quoting-style'], 'required'), opt('r', ['reverse']), opt('R', ['recursive']), opt('s', ['size']), opt('S', []),
    opt('', ['sort'], 'required'), opt('', ['time'], 'required'), opt('', ['time-style'], 'required'), opt('t', []), opt('T', ['tabsize'], 'required'), opt('u', []),
    opt('U', []), opt('v', []), opt('w', ['width'], 'required'), opt('x', []), opt('X', []), opt('Z', ['context']), opt('', ['zero']), opt('1', []),
  ]),
  gnu('cat', 'cat(1)', [
    opt('A', ['show-all']), opt('b', ['number-nonblank']), opt('e', []), opt('E', ['show-ends']), opt('n', ['number']), opt('s', ['squeeze-blank']),
    opt('t', []), opt('T', ['show-tabs']), opt('u', []), opt('v', ['show-nonprinting']),
  ]),
  gnu('head', 'head(1)', [opt('c', ['bytes'], 'required'), opt('n', ['lines'], 'required'), opt('q', ['quiet', 'silent']), opt('v', ['verbose']), opt('z', ['zero-terminated'])], FILES, { numeric: true }),
  gnu('tail', 'tail(1)', [
    opt('c', ['bytes'], 'required'), opt('f', ['follow'], 'optional'), opt('F', []), opt('n', ['lines'], 'required'), opt('', ['max-unchanged-stats'], 'required'),
    opt('', ['pid'], 'required'), opt('q', ['quiet', 'silent']), opt('', ['retry']), opt('s', ['sleep-interval'], 'required'), opt('v', ['verbose']), opt('z', ['zero-terminated']),
  ], FILES, { numeric: true }),
  gnu('wc', 'wc(1)', [opt('c', ['bytes']), opt('m', ['chars']), opt('l', ['lines']), opt('', ['files0-from'], 'required', 'reads-file'), opt('L', ['max-line-length']), opt('w', ['words'])]),
  gnu('stat', 'stat(1)', [opt('L', ['dereference']), opt('f', ['file-system']), opt('', ['cached'], 'required'), opt('c', ['format'], 'required'), opt('', ['printf'], 'required'), opt('t', ['terse'])]),
  gnu('basename', 'basename(1)', [opt('a', ['multiple']), opt('s', ['suffix'], 'required'), opt('z', ['zero'])], [operand('NAME', 'text', true)]),
  gnu('dirname', 'dirname(1)', [opt('z', ['zero'])], [operand('NAME', 'text', true)]),
  gnu('realpath', 'realpath(1)', [
    opt('e', ['canonicalize-existing']), opt('m', ['canonicalize-missing']), opt('L', ['logical']), opt('P', ['physical']), opt('q', ['quiet']),
    opt('', ['relative-to'], 'required'), opt('', ['relative-base'], 'required'), opt('s', ['strip', 'no-symlinks']), opt('z', ['zero']),
  ], [operand('FILE', 'text', true)]),
  gnu('readlink', 'readlink(1)', [
    opt('f', ['canonicalize']), opt('e', ['canonicalize-existing']), opt('m', ['canonicalize-missing']), opt('n', ['no-newline']), opt('q', ['quiet']),
    opt('s', ['silent']), opt('v', ['verbose']), opt('z', ['zero']),
  ], [operand('FILE', 'text', true)]),
  gnu('du', 'du(1)', [
    opt('0', ['null']), opt('a', ['all']), opt('', ['apparent-size']), opt('B', ['block-size'], 'required'), opt('b', ['bytes']), opt('c', ['total']),
    opt('D', ['dereference-args']), opt('d', ['max-depth'], 'required'), opt('', ['files0-from'], 'required', 'reads-file'), opt('H', []), opt('h', ['human-readable']),
    opt('', ['inodes']), opt('k', []), opt('L', ['dereference']), opt('l', ['count-links']), opt('m', []), opt('P', ['no-dereference']), opt('S', ['separate-dirs']),
    opt('', ['si']), opt('s', ['summarize']), opt('t', ['threshold'], 'required'), opt('', ['time'], 'optional'), opt('', ['time-style'], 'required'),
    opt('X', ['exclude-from'], 'required', 'reads-file'), opt('', ['exclude'], 'required'), opt('x', ['one-file-system']),
  ]),
  gnu('df', 'df(1)', [
    opt('a', ['all']), opt('B', ['block-size'], 'required'), opt('h', ['human-readable']), opt('H', ['si']), opt('i', ['inodes']), opt('k', []), opt('l', ['local']),
    opt('', ['no-sync']), opt('', ['output'], 'optional'), opt('P', ['portability']), opt('', ['sync'], 'none', 'writes', 'flushes every file system before reading its usage'),
    opt('', ['total']), opt('t', ['type'], 'required'), opt('T', ['print-type']), opt('x', ['exclude-type'], 'required'), opt('v', []),
  ]),
  gnu('cmp', 'cmp(1)', [
    opt('b', ['print-bytes']), opt('i', ['ignore-initial'], 'required'), opt('l', ['verbose']), opt('n', ['bytes'], 'required'), opt('s', ['quiet', 'silent']), opt('v', []),
  ], [operand('FILE1', 'read'), operand('FILE2', 'read'), operand('SKIP1', 'text'), operand('SKIP2', 'text')], { source: 'cmp(1), GNU diffutils 3.8' }),
  gnu('comm', 'comm(1)', [
    opt('1', []), opt('2', []), opt('3', []), opt('', ['check-order']), opt('', ['nocheck-order']), opt('', ['output-delimiter'], 'required'), opt('', ['total']), opt('z', ['zero-terminated']),
  ], [operand('FILE1', 'read'), operand('FILE2', 'read')]),
  gnu('cut', 'cut(1)', [
    opt('b', ['bytes'], 'required'), opt('c', ['characters'], 'required'), opt('d', ['delimiter'], 'required'), opt('f', ['fields'], 'required'), opt('n', []),
    opt('', ['complement']), opt('s', ['only-delimited']), opt('', ['output-delimiter'], 'required'), opt('z', ['zero-terminated']),
  ]),
  gnu('tr', 'tr(1)', [opt('cC', ['complement']), opt('d', ['delete']), opt('s', ['squeeze-repeats']), opt('t', ['truncate-set1'])], [operand('SET1', 'text'), operand('SET2', 'text')]),
  gnu('nl', 'nl(1)', [
    opt('b', ['body-numbering'], 'required'), opt('d', ['section-delimiter'], 'required'), opt('f', ['footer-numbering'], 'required'), opt('h', ['header-numbering'], 'required'),
    opt('i', ['line-increment'], 'required'), opt('l', ['join-blank-lines'], 'required'), opt('n', ['number-format'], 'required'), opt('p', ['no-renumber']),
    opt('s', ['number-separator'], 'required'), opt('v', ['starting-line-number'], 'required'), opt('w', ['number-width'], 'required'),
  ]),
  gnu('whoami', 'whoami(1)', [], []),
  gnu('id', 'id(1)', [opt('a', []), opt('Z', ['context']), opt('g', ['group']), opt('G', ['groups']), opt('n', ['name']), opt('r', ['real']), opt('u', ['user']), opt('z', ['zero'])], [operand('USER', 'text', true)]),
  gnu('uname', 'uname(1)', [
    opt('a', ['all']), opt('s', ['kernel-name']), opt('n', ['nodename']), opt('r', ['kernel-release']), opt('v', ['kernel-version']), opt('m', ['machine']),
    opt('p', ['processor']), opt('i', ['hardware-platform']), opt('o', ['operating-system']),
  ], []),
  gnu('sort', 'sort(1)', [
    opt('b', ['ignore-leading-blanks']), opt('d', ['dictionary-order']), opt('f', ['ignore-case']), opt('g', ['general-numeric-sort']), opt('i', ['ignore-nonprinting']),
    opt('M', ['month-sort']), opt('h', ['human-numeric-sort']), opt('n', ['numeric-sort']), opt('R', ['random-sort']), opt('', ['random-source'], 'required', 'reads-file'),
    opt('r', ['reverse']), opt('', ['sort'], 'required'), opt('V', ['version-sort']), opt('', ['batch-size'], 'required'), opt('c', []), opt('', ['check'], 'optional'), opt('C', []),
    opt('', ['compress-program'], 'required', 'runs', 'sort pipes its temporary files through this program'), opt('', ['debug']),
    opt('', ['files0-from'], 'required', 'reads-file'), opt('k', ['key'], 'required'), opt('m', ['merge']), opt('o', ['output'], 'required', 'writes', 'writes the result to this file'),
    opt('s', ['stable']), opt('S', ['buffer-size'], 'required'), opt('t', ['field-separator'], 'required'),
    opt('T', ['temporary-directory'], 'required', 'writes', 'writes temporary files in this folder'), opt('', ['parallel'], 'required'), opt('u', ['unique']), opt('z', ['zero-terminated']),
  ]),
  gnu('uniq', 'uniq(1)', [
    opt('c', ['count']), opt('d', ['repeated']), opt('D', []), opt('', ['all-repeated'], 'optional'), opt('f', ['skip-fields'], 'required'), opt('', ['group'], 'optional'),
    opt('i', ['ignore-case']), opt('s', ['skip-chars'], 'required'), opt('u', ['unique']), opt('z', ['zero-terminated']), opt('w', ['check-chars'], 'required'),
  ], [operand('INPUT', 'read'), operand('OUTPUT', 'written')], { numeric: true }),
  gnu('date', 'date(1)', [
    opt('d', ['date'], 'required'), opt('', ['debug']), opt('f', ['file'], 'required', 'reads-file'), opt('I', ['iso-8601'], 'optional'), opt('', ['resolution']),
    opt('R', ['rfc-email']), opt('', ['rfc-3339'], 'required'), opt('r', ['reference'], 'required', 'reads-file'),
    opt('s', ['set'], 'required', 'writes', 'sets the system clock'), opt('u', ['utc', 'universal']),
  ], [operand('+FORMAT', 'text', false, '+')]),
  gnu('pwd', 'pwd(1) and bash(1), SHELL BUILTIN COMMANDS', [opt('L', ['logical']), opt('P', ['physical'])], []),
];
