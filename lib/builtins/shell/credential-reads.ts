import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { CREDENTIAL_DIRECTORIES, CREDENTIAL_FILES, isCredentialPath, isCredentialPathResolved, type CredentialPathOptions } from '../files/credential-paths';
import type { ShellAnalysis } from './analyze-command';
import { isPlainTilde, type ShellWord } from './shell-word';

/** Programs whose arguments are never files they read (names, strings, options). */
const NO_FILE_ARGUMENTS: ReadonlySet<string> = new Set(['echo', 'printf', 'true', 'false', ':', 'pwd', 'whoami', 'id', 'uname', 'basename', 'dirname', 'which', 'whereis', 'type']);

/** First characters of a glob segment after which the segment may still name a dot file (bash(1), Pathname Expansion). */
const MAY_START_WITH_DOT = '.[\\"\'$`~{';

/**
 * The first word of `analysis` that names, or may name once the shell expands it, a credential path
 * ({@link isCredentialPath}): an argument of a simple command (its run view; `--opt=PATH` and `REV:PATH` parts
 * included) or the source of an input redirection. Literal words resolve against `cwd` (a leading `~/` against this
 * process's home directory) with their links followed ({@link isCredentialPathResolved}). A word known only at run
 * time counts when it may name one: a variable, a tilde, a brace list, a quote or escape, or a glob one of whose
 * segments may match a dot file (every built-in credential path has a segment starting with a dot, which bash's
 * globs match only when written) or that may reach a link to credentials. Undefined when none does. The arguments of programs that read no file (`echo`, `pwd`, `basename`...) are not judged.
 */
export function credentialRead(analysis: ShellAnalysis, cwd: string, options: CredentialPathOptions = {}): string | undefined {
  // `shopt -s dotglob` or a credential name without a dot segment lets a glob match it without a written dot.
  const anyGlob = analysis.commands.some((c) => c.program === 'shopt') || !allDotted(options);
  const names = (w: ShellWord) => (w.literal || (isPlainTilde(w) && w.text.startsWith('~')) ? literalNames(w.text, cwd, options) : dynamicNames(w.text, cwd, options, anyGlob));
  for (const command of analysis.commands) {
    if (command.program !== undefined && NO_FILE_ARGUMENTS.has(command.program)) continue;
    const words = command.views[command.views.length - 1]!;
    const hit = words.slice(1).find(names);
    if (hit !== undefined) return hit.text;
  }
  const input = analysis.redirects.find((r) => r.kind === 'read' && (r.target === undefined || names(r.target)));
  return input === undefined ? undefined : (input.target?.text ?? 'a file known only when it runs');
}

function literalNames(text: string, cwd: string, options: CredentialPathOptions): boolean {
  if (text.startsWith('~')) {
    // The shell expands a leading tilde; `~/x` is judged in this process's home, as path rules do, `~user/x` asked.
    if (isCredentialPath(text, options)) return true;
    if (text !== '~' && !text.startsWith('~/')) return true;
    return isCredentialPathResolved(`${homedir()}${text.slice(1)}`, cwd, options);
  }
  const parts = [text];
  const equals = text.indexOf('=');
  if (text.startsWith('-') && equals > 0) parts.push(text.slice(equals + 1));
  const colon = text.indexOf(':');
  if (colon >= 0) parts.push(text.slice(colon + 1));
  return parts.some((p) => p !== '' && (isCredentialPathResolved(p, cwd, options) || readsProcess(resolve(cwd, p))));
}

/**
 * Files of `/proc` that describe the machine and hold no process's secrets (proc(5)); every other path under `/proc`
 * (`/proc/self/environ`, `/proc/1/cmdline`, `/proc/self/mem`, a folder a recursive search walks) may show a process's
 * environment, API keys included, and counts as a credential read.
 */
const PROC_PUBLIC: ReadonlySet<string> = new Set(['/proc/cpuinfo', '/proc/meminfo', '/proc/version', '/proc/loadavg', '/proc/uptime', '/proc/stat', '/proc/filesystems', '/proc/swaps', '/proc/partitions', '/proc/diskstats']);

/** Whether an absolute path, as written or once its links are followed, lies in `/proc` outside {@link PROC_PUBLIC}. */
function readsProcess(path: string): boolean {
  const inProc = (p: string) => (p === '/proc' || p.startsWith('/proc/')) && !PROC_PUBLIC.has(p);
  if (inProc(path)) return true;
  try {
    return inProc(realpathSync(path));
  } catch {
    return false;
  }
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
  if (isCredentialPathResolved(absolute, cwd, options) || readsProcess(absolute) || readsProcess(resolve(absolute, 'x'))) return true;
  return linksToCredentials(absolute, segments[segments.length - 1]!, options);
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
