import type { ProgramGrammar } from '../grammar-types';
import { opt, operand } from '../spec-helpers';

/** find(1)'s primaries that take one value word and only test or print (GNU findutils 4.9.0, EXPRESION: TESTS and OPTIONS). */
const FIND_VALUED = [
  'name', 'iname', 'path', 'ipath', 'wholename', 'iwholename', 'regex', 'iregex', 'regextype', 'type', 'xtype', 'size', 'perm', 'user', 'group', 'uid', 'gid',
  'newer', 'anewer', 'cnewer', 'amin', 'atime', 'cmin', 'ctime', 'mmin', 'mtime', 'used', 'links', 'inum', 'samefile', 'lname', 'ilname', 'maxdepth', 'mindepth',
  'fstype', 'context', 'printf', 'newermt', 'newerct', 'newerat', 'newerBt', 'newermm', 'newercc', 'neweraa', 'newerBB', 'newerma', 'newermc', 'D',
];
const FIND_FLAGS = [
  'print', 'print0', 'ls', 'prune', 'quit', 'true', 'false', 'empty', 'executable', 'readable', 'writable', 'nouser', 'nogroup', 'depth', 'd', 'mount', 'xdev',
  'noleaf', 'daystart', 'follow', 'ignore_readdir_race', 'noignore_readdir_race', 'warn', 'nowarn', 'help', 'version', 'H', 'L', 'P', 'O0', 'O1', 'O2', 'O3',
];

/** Programs that describe files: file (file 5.44), tree (tree 2.1.0), find (GNU findutils 4.9.0). */
export const FILE_TOOLS: readonly ProgramGrammar[] = [
  {
    name: 'file',
    source: 'file(1), file 5.44',
    syntax: 'gnu',
    options: [
      opt('', ['help']), opt('v', ['version']), opt('m', ['magic-file'], 'required', 'reads-file'),
      opt('z', ['uncompress'], 'none', 'runs', 'may run decompressors on compressed files'), opt('Z', ['uncompress-noreport'], 'none', 'runs', 'may run decompressors on compressed files'),
      opt('b', ['brief']), opt('c', ['checking-printout']), opt('e', ['exclude'], 'required'), opt('', ['exclude-quiet'], 'required'),
      opt('f', ['files-from'], 'required', 'reads-file'), opt('F', ['separator'], 'required'), opt('i', ['mime']), opt('', ['apple']), opt('', ['extension']),
      opt('', ['mime-type']), opt('', ['mime-encoding']), opt('k', ['keep-going']), opt('l', ['list']), opt('L', ['dereference']), opt('h', ['no-dereference']),
      opt('n', ['no-buffer']), opt('N', ['no-pad']), opt('0', ['print0']), opt('p', ['preserve-date'], 'none', 'writes', 'sets the access time of every file back'),
      opt('P', ['parameter'], 'required'), opt('r', ['raw']), opt('s', ['special-files']), opt('S', ['no-sandbox']),
      opt('C', ['compile'], 'none', 'writes', 'writes a compiled magic file'), opt('d', ['debug']),
    ],
    operands: [operand('FILE', 'read', true)],
  },
  {
    name: 'tree',
    source: 'tree(1), tree 2.1.0 (not installed here: from its manual page)',
    syntax: 'gnu',
    note: 'tree takes no abbreviations; reading every prefix as one only refuses more',
    options: [
      opt('a', []), opt('d', []), opt('l', []), opt('f', []), opt('x', []), opt('L', [], 'required'), opt('R', [], 'none', 'writes', 'with -H, writes 00Tree.html into every folder'),
      opt('P', [], 'required'), opt('I', [], 'required'), opt('', ['gitignore']), opt('', ['gitfile'], 'required', 'reads-file'), opt('', ['ignore-case']), opt('', ['matchdirs']),
      opt('', ['metafirst']), opt('', ['prune']), opt('', ['info']), opt('', ['infofile'], 'required', 'reads-file'), opt('', ['noreport']), opt('', ['charset'], 'required'),
      opt('', ['filelimit'], 'required'), opt('', ['timefmt'], 'required'), opt('o', [], 'required', 'writes', 'writes the listing to this file'), opt('q', []), opt('N', []),
      opt('Q', []), opt('p', []), opt('u', []), opt('g', []), opt('s', []), opt('h', []), opt('', ['si']), opt('', ['du']), opt('D', []), opt('F', []), opt('', ['inodes']),
      opt('', ['device']), opt('v', []), opt('t', []), opt('c', []), opt('U', []), opt('r', []), opt('', ['dirsfirst']), opt('', ['filesfirst']), opt('', ['sort'], 'required'),
      opt('i', []), opt('A', []), opt('S', []), opt('n', []), opt('C', []), opt('X', []), opt('J', []), opt('H', [], 'required'), opt('T', [], 'required'), opt('', ['nolinks']),
      opt('', ['hintro', 'houtro'], 'required', 'reads-file'), opt('', ['fromfile']), opt('', ['fromtabfile']), opt('', ['fflinks']), opt('', ['version']), opt('', ['help']),
    ],
    operands: [operand('DIRECTORY', 'read', true)],
  },
  {
    name: 'find',
    source: 'find(1), GNU findutils 4.9.0',
    syntax: 'find',
    note: 'primaries are matched exactly, each with its count of value words',
    options: [
      opt('', FIND_VALUED, 'required'),
      opt('', FIND_FLAGS),
      opt('', ['files0-from'], 'required', 'reads-file'),
      opt('', ['delete'], 'none', 'writes', 'removes every file found'),
      opt('', ['exec', 'execdir', 'ok', 'okdir'], 'none', 'runs', 'runs a command on every file found'),
      opt('', ['fls', 'fprint', 'fprint0', 'fprintf'], 'required', 'writes', 'writes the list to this file'),
    ],
    operands: [operand('STARTING-POINT', 'read', true)],
  },
];
