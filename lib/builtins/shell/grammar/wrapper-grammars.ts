import type { WrapperGrammar } from './grammar-types';
import { HELP_VERSION, opt, operand } from './spec-helpers';

const CU = 'GNU coreutils 9.1';
const UL = 'util-linux 2.38.1';
const BASH = 'bash(1), SHELL BUILTIN COMMANDS, GNU bash 5.2';
const COMMAND = operand('COMMAND', 'command');
const UTIL_HELP = [opt('h', ['help']), opt('V', ['version'])];

function wrapper(name: string, source: string, options: WrapperGrammar['options'], operands: WrapperGrammar['operands'], extra: Partial<WrapperGrammar> = {}): WrapperGrammar {
  return { name, source, syntax: 'gnu', inOrder: true, transparent: true, options, operands, ...extra };
}

/**
 * Programs that run another command, with their grammars (getopt_long in `+` mode: options stop at the first
 * operand). The analysis finds the command each runs by parsing the wrapper's words, abbreviations and glued values
 * included (`timeout --sig KILL 5 rm`, `nice --adj 5 rm`, `env --uns X rm`); an option it does not know, an
 * ambiguous abbreviation or a word known only at run time before the command makes it opaque (deny and ask rules
 * match it, allow rules do not). Options marked `runs` (`env -S`, `sudo -s`, `flock -c`) run a string the analysis
 * cannot see: opaque too. `reads-file` values (`xargs -a FILE`) are files the wrapper reads itself. Frozen.
 */
export const WRAPPER_GRAMMARS: readonly WrapperGrammar[] = [
  wrapper('env', `env(1), ${CU}`, [
    opt('i', ['ignore-environment']), opt('0', ['null']), opt('u', ['unset'], 'required'),
    opt('C', ['chdir'], 'required', 'read-only', 'runs the command in another folder, where its paths mean other files', 'chdir'),
    opt('S', ['split-string'], 'required', 'runs', 'splits a string into the command and its arguments'),
    opt('', ['block-signal', 'default-signal', 'ignore-signal'], 'optional'), opt('', ['list-signal-handling']), opt('v', ['debug']), ...HELP_VERSION,
  ], [COMMAND], { assignments: true }),
  wrapper('command', BASH, [opt('p', []), opt('v', [], 'none', 'read-only', 'describes the command instead', 'no-command'), opt('V', [], 'none', 'read-only', 'describes the command instead', 'no-command')], [COMMAND]),
  wrapper('builtin', BASH, [], [COMMAND]),
  wrapper('exec', BASH, [opt('c', []), opt('l', []), opt('a', [], 'required')], [COMMAND]),
  wrapper('nice', `nice(1), ${CU}`, [opt('n', ['adjustment'], 'required'), ...HELP_VERSION], [COMMAND], { numeric: true }),
  wrapper('nohup', `nohup(1), ${CU}`, HELP_VERSION, [COMMAND]),
  wrapper('timeout', `timeout(1), ${CU}`, [
    opt('', ['preserve-status', 'foreground']), opt('k', ['kill-after'], 'required'), opt('s', ['signal'], 'required'), opt('v', ['verbose']), ...HELP_VERSION,
  ], [operand('DURATION', 'text'), COMMAND]),
  wrapper('stdbuf', `stdbuf(1), ${CU}`, [opt('i', ['input'], 'required'), opt('o', ['output'], 'required'), opt('e', ['error'], 'required'), ...HELP_VERSION], [COMMAND]),
  wrapper('time', 'time(1), GNU time 1.9', [
    opt('a', ['append']), opt('f', ['format'], 'required'), opt('o', ['output'], 'required', 'writes', 'writes the report to this file'), opt('p', ['portability']),
    opt('q', ['quiet']), opt('v', ['verbose']), ...UTIL_HELP,
  ], [COMMAND]),
  wrapper('ionice', `ionice(1), ${UL}`, [
    opt('c', ['class'], 'required'), opt('n', ['classdata'], 'required'), opt('t', ['ignore']),
    opt('p', ['pid'], 'required', 'read-only', 'acts on running processes', 'no-command'), opt('P', ['pgid'], 'required', 'read-only', 'acts on running processes', 'no-command'),
    opt('u', ['uid'], 'required', 'read-only', 'acts on running processes', 'no-command'), ...UTIL_HELP,
  ], [COMMAND]),
  wrapper('setsid', `setsid(1), ${UL}`, [opt('c', ['ctty']), opt('f', ['fork']), opt('w', ['wait']), ...UTIL_HELP], [COMMAND]),
  wrapper('coproc', 'bash(1), Coprocesses', [], [COMMAND], { syntax: 'words' }),
  wrapper('taskset', `taskset(1), ${UL}`, [
    opt('a', ['all-tasks']), opt('p', ['pid'], 'none', 'read-only', 'acts on a running process', 'no-command'), opt('c', ['cpu-list']), ...UTIL_HELP,
  ], [operand('MASK', 'text'), COMMAND]),
  wrapper('chrt', `chrt(1), ${UL}`, [
    opt('b', ['batch']), opt('d', ['deadline']), opt('f', ['fifo']), opt('i', ['idle']), opt('o', ['other']), opt('r', ['rr']), opt('R', ['reset-on-fork']),
    opt('T', ['sched-runtime'], 'required'), opt('P', ['sched-period'], 'required'), opt('D', ['sched-deadline'], 'required'), opt('a', ['all-tasks']),
    opt('m', ['max'], 'none', 'read-only', 'prints the priority ranges', 'no-command'), opt('p', ['pid'], 'none', 'read-only', 'acts on a running process', 'no-command'),
    opt('v', ['verbose']), ...UTIL_HELP,
  ], [operand('PRIORITY', 'text'), COMMAND]),
  wrapper('flock', `flock(1), ${UL}`, [
    opt('s', ['shared']), opt('x', ['exclusive']), opt('u', ['unlock']), opt('n', ['nonblock']), opt('w', ['timeout'], 'required'), opt('E', ['conflict-exit-code'], 'required'),
    opt('o', ['close']), opt('c', ['command'], 'required', 'runs', 'runs this string with sh -c'), opt('F', ['no-fork']), opt('', ['verbose']), ...UTIL_HELP,
  ], [operand('FILE', 'text'), COMMAND], { shellAfterOperands: ['-c', '--command'] }),
  wrapper('unbuffer', 'unbuffer(1), expect 5.45', [opt('p', [])], [COMMAND]),
  wrapper('busybox', 'busybox(1), BusyBox 1.36', [], [COMMAND], { syntax: 'words' }),
  wrapper('toybox', 'toybox(1), toybox 0.8', [], [COMMAND], { syntax: 'words' }),
  wrapper('xargs', 'xargs(1), GNU findutils 4.9.0', [
    opt('0', ['null']), opt('a', ['arg-file'], 'required', 'reads-file', 'reads the arguments from this file'), opt('d', ['delimiter'], 'required'), opt('E', [], 'required'),
    opt('e', ['eof'], 'optional'), opt('I', [], 'required', 'read-only', 'puts each input line in place of this string', 'replace'),
    opt('i', ['replace'], 'optional', 'read-only', 'puts each input line in place of this string ({} by default)', 'replace'), opt('L', ['max-lines'], 'required'),
    opt('l', [], 'optional'), opt('n', ['max-args'], 'required'), opt('o', ['open-tty']), opt('P', ['max-procs'], 'required'), opt('p', ['interactive']),
    opt('', ['process-slot-var'], 'required'), opt('r', ['no-run-if-empty']), opt('s', ['max-chars'], 'required'), opt('', ['show-limits']), opt('t', ['verbose']),
    opt('x', ['exit']), ...HELP_VERSION,
  ], [COMMAND], { appends: true }),
  wrapper('chroot', `chroot(8), ${CU}`, [opt('', ['groups', 'userspec'], 'required'), opt('', ['skip-chdir']), ...HELP_VERSION], [operand('NEWROOT', 'text'), COMMAND], {
    transparent: false,
    defaultsToShell: true,
  }),
  wrapper('sudo', 'sudo(8), sudo 1.9.13 (not installed here: from its manual page)', [
    opt('A', ['askpass']), opt('b', ['background']), opt('E', []), opt('', ['preserve-env'], 'optional'), opt('H', ['set-home']), opt('n', ['non-interactive']),
    opt('P', ['preserve-groups']), opt('S', ['stdin']), opt('B', ['bell']), opt('N', ['no-update']),
    opt('e', ['edit'], 'none', 'runs', 'edits files as root with an editor'), opt('s', ['shell'], 'none', 'runs', 'runs a shell'), opt('i', ['login'], 'none', 'runs', 'runs a login shell'),
    opt('u', ['user'], 'required'), opt('g', ['group'], 'required'), opt('C', ['close-from'], 'required'), opt('h', ['host'], 'optional'), opt('p', ['prompt'], 'required'),
    opt('r', ['role'], 'required'), opt('t', ['type'], 'required'), opt('T', ['command-timeout'], 'required'), opt('U', ['other-user'], 'required'),
    opt('D', ['chdir'], 'required', 'read-only', 'runs the command in another folder', 'chdir'), opt('R', ['chroot'], 'required', 'read-only', 'runs the command under another root', 'chdir'),
    opt('l', ['list'], 'none', 'read-only', 'lists privileges instead', 'no-command'), opt('v', ['validate'], 'none', 'read-only', 'updates credentials only', 'no-command'),
    opt('k', ['reset-timestamp']), opt('K', ['remove-timestamp'], 'none', 'read-only', 'removes credentials only', 'no-command'),
    opt('V', ['version'], 'none', 'read-only', 'prints its version', 'no-command'), opt('', ['help'], 'none', 'read-only', 'prints its help', 'no-command'),
  ], [COMMAND], { transparent: false, assignments: true }),
  wrapper('doas', 'doas(1), OpenDoas 6.8', [
    opt('n', []), opt('u', [], 'required'), opt('a', [], 'required'), opt('C', [], 'required', 'read-only', 'checks a configuration file instead', 'no-command'),
    opt('L', [], 'none', 'read-only', 'clears persisted authentications only', 'no-command'), opt('s', [], 'none', 'runs', 'runs a shell'),
  ], [COMMAND], { transparent: false }),
];
