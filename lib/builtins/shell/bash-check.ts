import { PermissionBehavior } from '../../permissions/permission-behavior';
import type { PermissionContext } from '../../permissions/permission-context';
import { PermissionDecision } from '../../permissions/permission-decision';
import { PermissionMode } from '../../permissions/permission-mode';
import type { ShellAnalysis, ShellFeature, SimpleCommand } from './analyze-command';
import type { CredentialPathOptions } from '../files/credential-paths';
import { credentialRead } from './credential-reads';
import { judgeRedirectWrites, type RedirectWriteOptions } from './redirect-writes';
import { sedInvocation } from './sed-invocation';
import { literalWord, type ShellWord } from './shell-word';

/** Features that make a command's effect depend on what only runs at run time: always asked, bypass-immune. */
const INJECTION: readonly ShellFeature[] = [
  'parse_error',
  'unknown_syntax',
  'command_substitution',
  'process_substitution',
  'parameter_expansion',
  'arithmetic',
  'subshell',
  'control_flow',
  'function_definition',
  'test_command',
  'heredoc_to_shell',
  'inline_code',
];

/** Options of {@link checkShellCommand}. */
export interface ShellCheckOptions extends RedirectWriteOptions {
  /** The user's additions to the credential paths, as the file tools take them. */
  readonly credentialPaths?: CredentialPathOptions;
}

/**
 * The layered check of a shell tool, in order: (1) injection risk -> bypass-immune ASK; (2) every simple command
 * read-only and no write redirection -> ALLOW, unless the command reads a credential path (an argument or input
 * redirection naming one, or a run-time word that may name one: see `credentialRead`), which is an ASK that allow
 * rules and BYPASS can let through, as for the Read tool; (3) dangerous commands on parsed words -> bypass-immune ASK; (4) a `sed`
 * script that runs commands or reads or writes other files (`e`, `r`, `w`, `s///e`, `s///w`, a script file), and `sed
 * -i` on a dangerous file, and (5) dangerous paths among the arguments of file commands -> bypass-immune ASK, and
 * output redirections judged as writes ({@link judgeRedirectWrites}); (6) removing `/`, `~`, `*`, `X/*` or a direct
 * child of `/` -> bypass-immune ASK; (7) in ACCEPT_EDITS and DONT_ASK, file commands whose targets all lie inside the
 * working directories -> ALLOW unless it reads a credential path; else (8) the credential ASK, or PASSTHROUGH, so the command rules decide. See docs/shell-analysis.md for
 * the read-only programs and their allowed options.
 */
export function checkShellCommand(analysis: ShellAnalysis, context: PermissionContext, options: ShellCheckOptions = {}): PermissionDecision {
  if (analysis.unanalysable !== undefined) return immune(`The command cannot be analysed safely (${analysis.unanalysable}).`);
  const risk = INJECTION.find((f) => analysis.features.has(f));
  if (risk !== undefined) return immune(`The command has ${risk.split('_').join(' ')}, whose effect is only known when it runs.`);
  const opaque = analysis.commands.find((c) => c.opaque);
  if (opaque !== undefined) return immune(`The command runs ${opaque.words.map((w) => w.text).join(' ')}, whose code is only known when it runs.`);
  const writes = hasWrites(analysis);
  const credential = credentialRead(analysis, context.cwd, options.credentialPaths);
  const credentialAsk = () => PermissionDecision.ask(`The command reads ${credential}, which may be a credential file; the user must confirm.`);
  if (isReadOnlyCommand(analysis)) {
    if (credential !== undefined) return credentialAsk();
    return PermissionDecision.allow('The command only reads.', { reason: { type: 'read_only' } });
  }
  for (const command of analysis.commands) {
    const danger = dangerous(command);
    if (danger !== undefined) return immune(danger);
  }
  for (const command of analysis.commands) {
    if (riskName(command) !== 'sed') continue;
    const sed = sedInvocation(runWords(command).slice(1));
    if (sed.risk !== undefined) return immune(`The sed command cannot be allowed: ${sed.risk}.`);
  }
  for (const command of analysis.commands) {
    const name = riskName(command);
    if (name === undefined || !FILE_COMMANDS.has(name)) continue;
    const sensitive = pathArguments(command, name).find((w) => !w.literal || context.isDangerousPath(w.text));
    if (sensitive !== undefined) return immune(`The command ${name} touches ${sensitive.text}, a sensitive path.`);
    const removal = name === 'rm' || name === 'rmdir' ? pathArguments(command, name).find(isSweepingRemoval) : undefined;
    if (removal !== undefined) return immune(`The command removes ${removal.text}.`);
  }
  const redirects = judgeRedirectWrites(analysis, context, options);
  if (redirects.behavior !== PermissionBehavior.PASSTHROUGH) return redirects;
  if (credential !== undefined) return credentialAsk();
  // An assignment (`PATH=bin; mv a b`) may change which program a later command runs; an earlier part of a
  // compound (`mv a/d d2 && cp x d2/y`) may change what a later path resolves to, which was judged before it ran.
  const steered = analysis.features.has('assignment') || resolutionChanger(analysis) !== undefined;
  if ((context.mode === PermissionMode.ACCEPT_EDITS || context.mode === PermissionMode.DONT_ASK) && analysis.commands.length > 0 && !writes && !steered) {
    const inside = analysis.commands.every((c) => {
      const name = programName(c);
      if (name === undefined || !EDIT_COMMANDS.has(name)) return false;
      const paths = pathArguments(c, name);
      return paths.length > 0 && paths.every((w) => w.literal && context.isInsideWorkingDirectory(w.text));
    });
    if (inside) return PermissionDecision.allow('Every file the command changes lies inside the working directories.', { reason: { type: 'mode', mode: context.mode } });
  }
  return PermissionDecision.passthrough();
}

const HARMLESS: ReadonlySet<string> = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

function hasWrites(analysis: ShellAnalysis): boolean {
  return analysis.redirects.some((r) => r.kind === 'write' && !(r.target?.literal && HARMLESS.has(r.target.text)));
}

/**
 * Whether the analysis judges the whole command read-only: it can be analysed, has no injection risk, every simple
 * command is read-only, no output goes to a file, and it assigns no variable that steers later commands. This is the
 * verdict behind the read-only ALLOW of {@link checkShellCommand} (which still asks for credential reads), and the
 * one the Bash tool enforces with the sandbox's `readOnly` option.
 */
export function isReadOnlyCommand(analysis: ShellAnalysis): boolean {
  if (analysis.unanalysable !== undefined || INJECTION.some((f) => analysis.features.has(f)) || analysis.commands.some((c) => c.opaque)) return false;
  return analysis.commands.length > 0 && !hasWrites(analysis) && !analysis.features.has('assignment') && analysis.commands.every(isReadOnly);
}

/**
 * Programs that can change what a later path resolves to: they move entries, create links (`ln`, `cp -R` copies
 * links as links), change folder, or unpack and check out trees that may hold links. As an earlier part of a compound
 * they make the later parts' paths, judged against the file system as it is before the command, unreliable. `mkdir`,
 * `touch`, `rm`, `rmdir` and `sed -i` are not among them: they create folders and regular files or remove entries,
 * and never make a path that was judged inside lead outside.
 */
const RESOLUTION_CHANGERS: ReadonlySet<string> = new Set([
  'mv', 'ln', 'cp', 'cd', 'pushd', 'popd', 'tar', 'unzip', 'cpio', 'rsync', 'install', 'git', 'patch', 'link', 'bsdtar', '7z',
]);

/**
 * The first part of a compound that may change what another part's path resolves to: one before the last simple
 * command, or any part when parts run at the same time (a pipeline, `&`, `coproc`), where any part may run last.
 */
function resolutionChanger(analysis: ShellAnalysis): SimpleCommand | undefined {
  const concurrent = analysis.features.has('pipeline') || analysis.features.has('background');
  const earlier = concurrent && analysis.commands.length > 1 ? analysis.commands : analysis.commands.slice(0, -1);
  return earlier.find((c) => {
    const name = riskName(c);
    return name === undefined || RESOLUTION_CHANGERS.has(name) || c.redirects.some((r) => r.kind === 'write');
  });
}
const FILE_COMMANDS: ReadonlySet<string> = new Set(['rm', 'mv', 'cp', 'chmod', 'chown', 'chgrp', 'touch', 'ln', 'sed', 'mkdir', 'rmdir']);
const EDIT_COMMANDS: ReadonlySet<string> = new Set(['mkdir', 'touch', 'rm', 'rmdir', 'mv', 'cp', 'sed']);

function immune(message: string): PermissionDecision {
  return PermissionDecision.ask(message, { bypassImmune: true });
}

/** The program actually run, by name, when it is a bare name (`/tmp/x/ls` is not `ls`) and known. */
function programName(command: SimpleCommand): string | undefined {
  const program = command.program;
  return program === undefined || program.includes('/') ? undefined : program;
}

/**
 * The program's name for the danger checks: a path-spelled program (`/bin/rm`, `./rm`) is judged by its last
 * component, so a path cannot hide a dangerous command (read-only detection keeps {@link programName}, which
 * trusts no path).
 */
function riskName(command: SimpleCommand): string | undefined {
  const program = command.program;
  if (program === undefined) return undefined;
  return program.slice(program.lastIndexOf('/') + 1) || undefined;
}

function runWords(command: SimpleCommand): readonly ShellWord[] {
  return command.views[command.views.length - 1]!;
}

/** Commands whose short option `-t DIR` (or `-S SUFFIX`) may be glued to its value: `cp -t/etc x`. */
const TARGET_OPTION_COMMANDS: ReadonlySet<string> = new Set(['cp', 'mv', 'ln']);

/**
 * The paths a file command may change: its operands (sed's files, not its scripts) and the values of options that
 * name a path (`--target-directory=/etc`, `-t/etc`; every `--name=value` value counts, which at worst keeps a harmless
 * value such as `--mode=644` from the ACCEPT_EDITS allowance when it is not a path inside the working directories).
 */
function pathArguments(command: SimpleCommand, name: string): ShellWord[] {
  const words = runWords(command).slice(1);
  if (name === 'sed') return [...sedInvocation(words).files];
  const operands: ShellWord[] = [];
  let options = true;
  for (const w of words) {
    if (options && w.literal && w.text === '--') {
      options = false;
      continue;
    }
    if (options && w.literal && w.text.length > 1 && w.text[0] === '-') {
      operands.push(...optionPaths(w.text, name));
      continue;
    }
    operands.push(w);
  }
  // chmod and chown take their mode or owner first.
  return name === 'chmod' || name === 'chown' || name === 'chgrp' ? operands.slice(1) : operands;
}

function optionPaths(option: string, name: string): ShellWord[] {
  if (option.startsWith('--')) {
    const eq = option.indexOf('=');
    return eq < 0 ? [] : [literalWord(option.slice(eq + 1))];
  }
  if (!TARGET_OPTION_COMMANDS.has(name)) return [];
  const at = option.search(/[tS]/);
  return at > 0 && at < option.length - 1 ? [literalWord(option.slice(at + 1))] : [];
}

function isSweepingRemoval(w: ShellWord): boolean {
  const t = w.text;
  if (t === '/' || t === '~' || t === '~/' || t === '*' || t === './*' || t === '.' || t === '..' || t.endsWith('/*')) return true;
  // A direct child of `/`: `/usr`, `/etc/`.
  const trimmed = t.endsWith('/') ? t.slice(0, -1) : t;
  return trimmed.startsWith('/') && trimmed.indexOf('/', 1) < 0 && trimmed.length > 1;
}

/** A dangerous command, judged on its parsed words (so `--format` is not `format`). */
function dangerous(command: SimpleCommand): string | undefined {
  const name = riskName(command);
  const words = runWords(command);
  const flags = shortFlags(words);
  const has = (...names: string[]) => words.some((w, k) => k > 0 && w.literal && names.includes(w.text));
  if (command.views.some((v) => v[0]?.literal && (v[0].text === 'sudo' || v[0].text === 'doas')) && name === 'rm') return 'The command removes files as another user.';
  switch (name) {
    case 'rm':
      if ((flags.has('r') || flags.has('R') || has('--recursive')) && (flags.has('f') || has('--force'))) return 'The command removes files recursively and by force.';
      return undefined;
    case 'dd':
    case 'fdisk':
    case 'sfdisk':
    case 'parted':
    case 'wipefs':
    case 'shred':
      return `The command ${name} writes to devices or destroys data.`;
    case 'chmod':
      if (words.some((w) => w.literal && (w.text === '777' || w.text === '0777' || w.text === 'a+rwx'))) return 'The command makes files writable by everyone.';
      return undefined;
    case 'chown':
      if (flags.has('R') || has('--recursive')) return 'The command changes owners recursively.';
      return undefined;
    case 'kill':
    case 'pkill':
    case 'killall':
      if (has('-9', '-KILL', '-SIGKILL') || words.some((w, k) => w.literal && (w.text === '-s' || w.text === '-n') && ['9', 'KILL', 'SIGKILL'].includes(words[k + 1]?.text ?? ''))) return 'The command kills processes without letting them clean up.';
      return undefined;
    default:
      if (name !== undefined && (name === 'mkfs' || name.startsWith('mkfs.'))) return 'The command formats a file system.';
      if (command.redirects.some((r) => r.kind === 'write' && r.target?.literal && r.target.text.startsWith('/dev/') && !HARMLESS.has(r.target.text))) return 'The command writes to a device.';
      return undefined;
  }
}

/** The letters of short option clusters (`-rf` -> r, f), up to `--`. */
function shortFlags(words: readonly ShellWord[]): Set<string> {
  const letters = new Set<string>();
  for (const w of words.slice(1)) {
    if (!w.literal) continue;
    if (w.text === '--') break;
    if (w.text.length > 1 && w.text[0] === '-' && w.text[1] !== '-') for (const c of w.text.slice(1)) letters.add(c);
  }
  return letters;
}

/**
 * Read-only programs and what keeps them read-only, from their manual pages. `any`: every option reads (none runs a
 * program or writes a file); otherwise the listed options are refused.
 */
const READ_ONLY: ReadonlyMap<string, { readonly refused?: readonly string[]; readonly maxOperands?: number }> = new Map([
  ['ls', {}], ['cat', {}], ['head', {}], ['tail', {}], ['wc', {}], ['stat', {}], ['pwd', {}], ['which', {}], ['whereis', {}], ['type', {}],
  ['echo', {}], ['true', {}], ['false', {}], [':', {}], ['whoami', {}], ['id', {}], ['uname', {}], ['basename', {}], ['dirname', {}],
  ['realpath', {}], ['readlink', {}], ['du', {}], ['df', {}], ['cmp', {}], ['comm', {}], ['cut', {}], ['tr', {}], ['nl', {}], ['grep', {}], ['egrep', {}], ['fgrep', {}],
  ['file', { refused: ['-C', '--compile'] }],
  ['tree', { refused: ['-o'] }],
  ['sort', { refused: ['-o', '--output', '--compress-program'] }],
  ['uniq', { maxOperands: 1 }],
  ['date', { refused: ['-s', '--set'] }],
  ['diff', {}],
  ['rg', { refused: ['--pre', '--pre-glob', '-z', '--search-zip'] }],
  ['ag', { refused: ['--pager'] }],
  ['find', { refused: ['-delete', '-exec', '-execdir', '-fls', '-fprint', '-fprint0', '-fprintf', '-ok', '-okdir'] }],
]);

/** git subcommands that only read, with the options that would make them write or run something refused. */
const GIT_READ_ONLY: ReadonlySet<string> = new Set(['status', 'log', 'diff', 'show', 'ls-files', 'ls-tree', 'cat-file', 'rev-parse', 'rev-list', 'describe', 'shortlog', 'blame', 'grep']);
const GIT_REFUSED: readonly string[] = ['--output', '-O', '--open-files-in-pager', '--ext-diff', '--textconv', '--filters'];

/**
 * Subcommands that run a repository's `diff.<driver>.textconv` programs (and `git diff` its `diff.<driver>.command`
 * ones) unless told not to: the environment cannot turn these off, since git configuration has no wildcard for a
 * driver name (gitattributes(5), "Performing text diffs of binary files"). They are read-only only with the options
 * that stop it. `log` runs them only when it shows patches.
 */
const GIT_DIFF_DRIVERS: ReadonlyMap<string, readonly string[]> = new Map([
  ['diff', ['--no-textconv', '--no-ext-diff']],
  ['show', ['--no-textconv']],
  ['blame', ['--no-textconv']],
  ['annotate', ['--no-textconv']],
  ['log', ['--no-textconv']],
]);

/** `git log` options that make it show patches (git-log(1), "Diff Formatting"). */
const GIT_LOG_PATCH: readonly string[] = ['-p', '-u', '--patch', '--patch-with-stat', '--patch-with-raw', '--cc', '-c', '-m', '--dd', '--remerge-diff', '--full-diff'];
const GIT_LOG_PATCH_PREFIXES: readonly string[] = ['-U', '--unified', '--word-diff', '--color-words', '-L', '--diff-merges'];

function runsDiffDrivers(sub: string, args: readonly ShellWord[]): boolean {
  const needed = GIT_DIFF_DRIVERS.get(sub);
  if (needed === undefined) return false;
  if (sub === 'log' && !args.some((w) => GIT_LOG_PATCH.includes(w.text) || GIT_LOG_PATCH_PREFIXES.some((p) => w.text.startsWith(p)))) return false;
  return !needed.every((option) => args.some((w) => w.text === option));
}

function isReadOnly(command: SimpleCommand): boolean {
  if (command.runsShellCode || command.assignments.length > 0) return false;
  const name = programName(command);
  if (name === undefined) return false;
  const words = runWords(command);
  if (command.views.length > 1 && command.views[0]![0]?.text !== name && !(name === 'git')) return false;
  if (words.length === 2 && words[1]!.literal && (words[1]!.text === '--version' || words[1]!.text === '-V' || words[1]!.text === 'version')) return true;
  // A tilde word expands to one word that is never an option.
  const known = words.every((w) => w.literal || w.tilde === true);
  if (name === 'git') return known && gitReadOnly(command);
  if (name === 'docker') return known && words.length >= 2 && ['ps', 'images', 'inspect', 'logs', 'version', 'info'].includes(words[1]!.text);
  const spec = READ_ONLY.get(name);
  if (spec === undefined) return false;
  // A word known only at run time (`*.ts`, `$F`) may become any option: only programs none of whose options write
  // or run anything may have one.
  if (!known && (spec.refused !== undefined || spec.maxOperands !== undefined)) return false;
  const args = words.slice(1);
  if (spec.refused !== undefined && args.some((w) => w.literal && spec.refused!.some((o) => w.text === o || w.text.startsWith(`${o}=`) || (o.length === 2 && o[0] === '-' && w.text[0] === '-' && w.text[1] !== '-' && w.text.includes(o[1]!))))) return false;
  if (spec.maxOperands !== undefined && args.filter((w) => !(w.literal && w.text.startsWith('-'))).length > spec.maxOperands) return false;
  return true;
}

function gitReadOnly(command: SimpleCommand): boolean {
  const view = command.views[command.views.length - 1]!;
  // Global options: only the git view without them is read; `-c` and friends never reach here read-only.
  if (command.views.length > 1 && command.allowViews < command.views.length) return false;
  const sub = view[1];
  if (sub === undefined || !sub.literal) return false;
  const args = view.slice(2);
  if (args.some((w) => w.literal && GIT_REFUSED.some((o) => w.text === o || w.text.startsWith(`${o}=`)))) return false;
  if (runsDiffDrivers(sub.text, args)) return false;
  if (GIT_READ_ONLY.has(sub.text)) return true;
  const only = (allowed: readonly string[]) => args.every((w) => w.literal && allowed.some((a) => w.text === a || w.text.startsWith(`${a}=`)));
  switch (sub.text) {
    case 'branch':
      return only(['--list', '-l', '-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose', '--show-current', '--contains', '--no-contains', '--merged', '--no-merged', '--sort', '--format', '--points-at', '--color', '--no-color', '--column', '--no-column']);
    case 'tag':
      return only(['--list', '-l', '-n', '--sort', '--format', '--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--column', '--no-column', '--color']);
    case 'remote':
      return args.length === 0 || only(['-v', '--verbose']) || (args[0]?.text === 'get-url' || args[0]?.text === 'show');
    case 'reflog':
      return args.length === 0 || args[0]?.text === 'show' || only(['-n', '--oneline', '--date', '--format']);
    case 'config':
      return args.some((w) => w.literal && ['--get', '--get-all', '--get-regexp', '--list', '-l', 'get', 'list'].includes(w.text)) && !args.some((w) => w.literal && ['--add', '--unset', '--unset-all', '--replace-all', '--edit', '-e', '--rename-section', '--remove-section', 'set', 'unset', 'edit'].includes(w.text));
    default:
      return false;
  }
}
