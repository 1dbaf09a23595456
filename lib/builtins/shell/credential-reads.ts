import { lstatSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { CREDENTIAL_DIRECTORIES, CREDENTIAL_FILES, holdsCredentialPaths, isCredentialPath, isCredentialPathResolved, SYSTEM_CREDENTIAL_PATHS, type CredentialPathOptions } from '../files/credential-paths';
import { basename, type ShellAnalysis, type SimpleCommand } from './analyze-command';
import { gitObjectRead } from './git-object-reads';
import { recursiveCredentialRead } from './recursive-reads';
import { isPlainTilde, type ShellWord } from './shell-word';

/** Programs whose arguments are never files they read (names, strings, options). */
const NO_FILE_ARGUMENTS: ReadonlySet<string> = new Set(['echo', 'printf', 'true', 'false', ':', 'pwd', 'whoami', 'id', 'uname', 'basename', 'dirname', 'which', 'whereis', 'type']);

/** Programs that list names or metadata, never contents: a folder that holds credentials is no read for them. */
const NAMES_ONLY: ReadonlySet<string> = new Set(['ls', 'stat', 'du', 'tree', 'find', 'realpath', 'readlink', 'test', '[']);

/** First characters of a glob segment after which the segment may still name a dot file (bash(1), Pathname Expansion). */
const MAY_START_WITH_DOT = '.[\\"\'$`~{';

/**
 * The first word of `analysis` that names, or may name once the shell expands it, a credential path
 * ({@link isCredentialPath}): an argument of a simple command (its run view; `--opt=PATH` and `REV:PATH` parts
 * included) or the source of an input redirection. Literal words resolve against `cwd` (a leading `~/` against this
 * process's home directory) with their links followed ({@link isCredentialPathResolved}). A word known only at run
 * time counts when it may name one: a variable, a tilde, a brace list, a quote or escape, or a glob one of whose
 * segments may match a dot file (every built-in credential path has a segment starting with a dot, which bash's
 * globs match only when written) or that may reach a link to credentials; and the credential paths a recursive read
 * reaches without naming them ({@link recursiveCredentialRead}: `grep -r x .`, `rg x`). Undefined when none does. The arguments of programs that read no file (`echo`, `pwd`, `basename`...) are not judged.
 */
export function credentialRead(analysis: ShellAnalysis, cwd: string, options: CredentialPathOptions = {}): string | undefined {
  // `shopt -s dotglob` or a credential name without a dot segment lets a glob match it without a written dot.
  const anyGlob = analysis.commands.some((c) => c.program === 'shopt') || !allDotted(options);
  const names = (w: ShellWord, folders: boolean) =>
    w.literal || (isPlainTilde(w) && w.text.startsWith('~')) ? literalNames(w.text, cwd, options, folders) : dynamicNames(w.text, cwd, options, anyGlob);
  for (const command of analysis.commands) {
    const hit = commandHit(command, names);
    if (hit !== undefined) return hit;
    const object = gitObjectRead(command, cwd, options);
    if (object !== undefined) return object;
    const recursive = recursiveCredentialRead(command, cwd, options);
    if (recursive !== undefined) return recursive;
  }
  const input = analysis.redirects.find((r) => r.kind === 'read' && (r.target === undefined || names(r.target, false)));
  return input === undefined ? undefined : (input.target?.text ?? 'a file known only when it runs');
}

/**
 * The first word among the wrappers' own words (`xargs -a .env echo`, `xargs --arg-file=.env`) that names, or may
 * name, a credential path, judged as {@link credentialRead} judges; undefined when none does. An allow rule names the
 * program a wrapper runs, not the file the wrapper reads, so it must not let such a read through.
 */
export function wrapperCredentialRead(analysis: ShellAnalysis, cwd: string, options: CredentialPathOptions = {}): string | undefined {
  const anyGlob = analysis.commands.some((c) => c.program === 'shopt') || !allDotted(options);
  for (const command of analysis.commands) {
    const written = command.views[0]!;
    const hit = written.slice(1, Math.min(written.length, command.programAt[0]!)).find((w) =>
      w.literal || (isPlainTilde(w) && w.text.startsWith('~')) ? literalNames(w.text, cwd, options, false) : dynamicNames(w.text, cwd, options, anyGlob));
    if (hit !== undefined) return hit.text;
  }
  return undefined;
}

/**
 * The first word of `command` that may name a credential path: the words of its wrappers (`xargs -a .env`, `env
 * --split-string`, `sudo -D`) in the command as written, then the arguments of the program actually run unless it
 * reads no file.
 */
function commandHit(command: SimpleCommand, names: (w: ShellWord, folders: boolean) => boolean): string | undefined {
  const written = command.views[0]!;
  const wrappers = written.slice(1, Math.min(written.length, command.programAt[0]!));
  const wrapperHit = wrappers.find((w) => names(w, false));
  if (wrapperHit !== undefined) return wrapperHit.text;
  if (command.program !== undefined && NO_FILE_ARGUMENTS.has(basename(command.program))) return undefined;
  const folders = command.program === undefined || !NAMES_ONLY.has(basename(command.program));
  const words = command.views[command.views.length - 1]!;
  return words.slice(1).find((w) => names(w, folders))?.text;
}

function literalNames(text: string, cwd: string, options: CredentialPathOptions, folders: boolean): boolean {
  const judge = (path: string) => isCredentialPathResolved(path, cwd, options) || (folders && (holdsCredentialPaths(path, options) || holdsCredentialPaths(resolve(cwd, path), options)));
  if (text.startsWith('~')) {
    // The shell expands a leading tilde; `~/x` is judged in this process's home, as path rules do, `~user/x` asked.
    if (isCredentialPath(text, options) || (folders && holdsCredentialPaths(text, options))) return true;
    if (text !== '~' && !text.startsWith('~/')) return true;
    return judge(`${homedir()}${text.slice(1)}`);
  }
  return pathParts(text).some((p) => p !== '' && judge(p));
}

/**
 * The parts of a word that may be paths a program opens: the word, the value of `NAME=VALUE` or `--opt=VALUE` (`dd
 * if=.env`), the path of `REV:PATH`, and for `-Xvalue` every tail after the first option letter, since getopt(3)
 * takes the rest of a word as the value of the first letter that takes one (`file -f.env`, `grep -rf.env`).
 */
function pathParts(text: string): string[] {
  const parts = [text];
  const equals = text.indexOf('=');
  if (equals > 0) parts.push(text.slice(equals + 1));
  const colon = text.indexOf(':');
  if (colon >= 0) parts.push(text.slice(colon + 1));
  if (text.length > 2 && text[0] === '-' && text[1] !== '-') for (let k = 2; k < text.length; k++) parts.push(text.slice(k));
  return parts;
}

function dynamicNames(source: string, cwd: string, options: CredentialPathOptions, anyGlob: boolean): boolean {
  const unquoted = [...source].filter((c) => c !== '"' && c !== "'").join('');
  if (isCredentialPath(unquoted, options)) return true;
  // A variable, tilde or brace list may become anything; a quote or escape hides which characters are pattern ones.
  if ([...source].some((c) => '$`~{"\'\\'.includes(c))) return true;
  if (anyGlob) return true;
  const segments = source.split('/');
  if (segments.some((s) => s !== '.' && s !== '..' && s !== '' && MAY_START_WITH_DOT.includes(s[0]!))) return true;
  // Only the last segment may hold pattern characters; the folder before it is literal.
  const folderSegments = segments.slice(0, -1);
  if (folderSegments.some(isPattern)) return true;
  const folder = folderSegments.length === 0 ? '.' : folderSegments.join('/') || '/';
  const absolute = isAbsolute(folder) ? folder : resolve(cwd, folder);
  if (isCredentialPathResolved(absolute, cwd, options) || isCredentialPath(resolve(absolute, 'x'), options) || holdsSystemSecret(absolute, segments[segments.length - 1]!)) return true;
  return linksToCredentials(absolute, segments[segments.length - 1]!, options);
}

/** Whether a pattern in `folder` may match a {@link SYSTEM_CREDENTIAL_PATHS} entry there (`/etc/sh*`, `/etc/ssh/*_key`). */
function holdsSystemSecret(folder: string, pattern: string): boolean {
  return SYSTEM_CREDENTIAL_PATHS.some((entry) => {
    const slash = entry.path.lastIndexOf('/');
    return entry.path.slice(0, slash) === folder && (entry.path.includes('*') || mayMatch(pattern, entry.path.slice(slash + 1)));
  });
}

function isPattern(segment: string): boolean {
  return [...segment].some((c) => c === '*' || c === '?' || c === '[' || c === ']' || c === '\\');
}

const MAX_ENTRIES = 10_000;

/**
 * Whether an entry of `folder` that `pattern` may match is a link to a credential path (a folder that cannot be read
 * or holds more than {@link MAX_ENTRIES} entries counts: fail closed).
 */
function linksToCredentials(folder: string, pattern: string, options: CredentialPathOptions): boolean {
  let entries: string[];
  try {
    entries = readdirSync(folder);
    if (entries.length > MAX_ENTRIES) return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR';
  }
  return entries.some((name) => {
    if (name.startsWith('.') || !mayMatch(pattern, name)) return false;
    const path = join(folder, name);
    try {
      return lstatSync(path).isSymbolicLink() && isCredentialPathResolved(path, folder, options);
    } catch {
      return true;
    }
  });
}

/**
 * Whether a glob segment may match `name`: `*` and `?` are matched exactly; a segment with a bracket class, an
 * escape or an extended pattern (`@(...)`, `!(...)`) may match anything.
 */
function mayMatch(pattern: string, name: string): boolean {
  if ([...pattern].some((c) => '[]\\()|@+!'.includes(c))) return true;
  const p = [...pattern];
  const n = [...name];
  // matched[j]: the pattern so far matches the first j characters of the name.
  let matched = n.map(() => false).concat(false);
  matched[0] = true;
  for (const c of p) {
    const next = n.map(() => false).concat(false);
    for (let j = 0; j <= n.length; j++) {
      if (c === '*') next[j] = matched[j]! || (j > 0 && next[j - 1]!);
      else if (j > 0) next[j] = matched[j - 1]! && (c === '?' || c === n[j - 1]);
    }
    matched = next;
  }
  return matched[n.length]!;
}

/** Whether every credential entry has a segment starting with a dot. */
function allDotted(options: CredentialPathOptions): boolean {
  const entries = [...CREDENTIAL_FILES, ...CREDENTIAL_DIRECTORIES, ...(options.files ?? []), ...(options.directories ?? [])];
  return entries.every((e) => e.replace(/\\/g, '/').split('/').some((s) => s.startsWith('.') && s !== '.' && s !== '..'));
}
