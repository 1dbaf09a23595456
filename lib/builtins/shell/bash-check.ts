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
import { programGrammar } from './grammar/program-grammars';
import { readOnlyVerdict } from './grammar/grammar-verdict';

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
      // A wrapper that changes user, folder or root (`sudo`, `env -C DIR`), or writes itself, keeps the allowance off.
      if (name === undefined || !EDIT_COMMANDS.has(name) || c.allowViews < c.views.length) return false;
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
 * Whether an input redirection may open a network connection: bash opens a socket for `/dev/tcp/HOST/PORT` and
 * `/dev/udp/HOST/PORT` (bash(1), REDIRECTION), and a target known only at run time may become one.
 */
function mayConnect(analysis: ShellAnalysis): boolean {
  return analysis.redirects.some((r) => r.kind === 'read' && (r.target === undefined || (!r.target.literal && r.target.tilde !== true) || /^\/dev\/(tcp|udp)\//.test(r.target.text)));
}

/**
 * Whether the analysis judges the whole command read-only: it can be analysed, has no injection risk, every simple
 * command is read-only, no output goes to a file, no input comes from a socket (`< /dev/tcp/host/80`) or a file known
 * only when it runs, and it assigns no variable that steers later commands. This is the
 * verdict behind the read-only ALLOW of {@link checkShellCommand} (which still asks for credential reads), and the
 * one the Bash tool enforces with the sandbox's `readOnly` option.
 */
export function isReadOnlyCommand(analysis: ShellAnalysis): boolean {
  if (analysis.unanalysable !== undefined || INJECTION.some((f) => analysis.features.has(f)) || analysis.commands.some((c) => c.opaque)) return false;
  return analysis.commands.length > 0 && !hasWrites(analysis) && !mayConnect(analysis) && !analysis.features.has('assignment') && analysis.commands.every(isReadOnly);
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
 * The words a read-only verdict judges: the command's own words, or the git command with its global options when
 * the analysis added a view without them (`git -C x log` and its view `git log`, which starts with the same word).
 * Undefined when a wrapper runs the program (`nice ls`): no wrapper is read-only.
 */
function judgedWords(command: SimpleCommand): readonly ShellWord[] | undefined {
  const views = command.views;
  if (views.length === 1) return views[0];
  if (views.length === 2 && views[0]![0] === views[1]![0]) return views[0];
  return undefined;
}

function isReadOnly(command: SimpleCommand): boolean {
  if (command.runsShellCode || command.assignments.length > 0) return false;
  const name = programName(command);
  if (name === undefined) return false;
  const words = judgedWords(command);
  const grammar = programGrammar(name);
  if (words === undefined || grammar === undefined) return false;
  return readOnlyVerdict(grammar, words.slice(1)).readOnly;
}
