import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isCredentialPath, type CredentialPathOptions } from '../files/credential-paths';
import { basename, type SimpleCommand } from './analyze-command';
import { gitSubcommandView } from './wrappers';

/**
 * git subcommands that print the content of objects (blobs by hash or by `REV:PATH`, the index, commits' patches) or
 * of tracked files (git-cat-file(1), git-show(1), git-diff(1) `--cached`, git-log(1) `-p`, git-grep(1) `--cached`,
 * git-archive(1), git-blame(1), git-stash(1) `show -p`): a credential file the repository tracks or stages reaches the
 * output through them without its path being written.
 */
const OBJECT_READERS: ReadonlySet<string> = new Set([
  'show', 'diff', 'diff-index', 'diff-tree', 'diff-files', 'log', 'whatchanged', 'grep', 'archive', 'format-patch', 'blame', 'annotate', 'stash', 'cherry', 'range-diff', 'apply',
]);

const INDEX_CACHE_SIZE = 16;
const indexCache = new Map<string, { readonly mtimeMs: number; readonly size: number; readonly paths: readonly string[] | undefined }>();

/**
 * Why `command` may print a credential file through git's objects, or undefined: `git cat-file` always (it reads any
 * object by its name, and a blob's hash says nothing of its path); the subcommands of {@link OBJECT_READERS} when the
 * repository's index lists a credential path ({@link isCredentialPath}), or when the repository cannot be told (`-C`
 * or `--git-dir` known only at run time, an index that cannot be read). History before the index (a credential file
 * committed once, then removed) is not seen.
 */
export function gitObjectRead(command: SimpleCommand, cwd: string, options: CredentialPathOptions = {}): string | undefined {
  // The first view that runs git still holds its global options (`-C`); the analysis adds one without them.
  const run = command.views.find((v) => v[0] !== undefined && v[0].literal && basename(v[0].text) === 'git');
  if (run === undefined) return undefined;
  const view = gitSubcommandView(run)?.view ?? run;
  const sub = view[1];
  if (sub === undefined || !sub.literal) return undefined;
  const what = `git ${sub.text}`;
  if (sub.text === 'cat-file') return `${what} (an object by its hash, which may be a credential file's)`;
  if (!OBJECT_READERS.has(sub.text)) return undefined;
  const folder = repositoryFolder(run, cwd);
  if (folder === undefined) return `${what} in a repository known only when it runs`;
  const paths = indexPaths(folder);
  if (paths === undefined) return `${what} in a repository whose index cannot be read`;
  const tracked = paths.find((p) => isCredentialPath(p, options));
  return tracked === undefined ? undefined : `${what} in a repository that tracks ${tracked}`;
}

/** The folder git starts in: `cwd` moved by each `-C` (git(1)); `null` for none; undefined when a word hides it. */
function repositoryFolder(words: SimpleCommand['words'], cwd: string): string | null | undefined {
  let folder = cwd;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (!word.literal) return undefined;
    if (!word.text.startsWith('-')) break;
    if (word.text === '--git-dir' || word.text.startsWith('--git-dir=') || word.text === '--work-tree' || word.text.startsWith('--work-tree=')) return undefined;
    if (word.text === '-C' || word.text === '-c' || word.text === '--config-env' || word.text === '--namespace' || word.text === '--exec-path') {
      const value = words[++i];
      if (value === undefined || !value.literal) return undefined;
      if (word.text === '-C') folder = resolve(folder, value.text);
    }
  }
  return folder;
}

/** The paths the index of the repository holding `folder` lists; [] outside a repository, undefined when unreadable. */
function indexPaths(folder: string | null): readonly string[] | undefined {
  if (folder === null) return [];
  const gitDir = findGitDir(folder);
  if (gitDir === undefined) return [];
  const file = join(gitDir, 'index');
  let stat;
  try {
    stat = statSync(file);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? [] : undefined;
  }
  const known = indexCache.get(file);
  if (known !== undefined && known.mtimeMs === stat.mtimeMs && known.size === stat.size) return known.paths;
  let paths: readonly string[] | undefined;
  try {
    paths = parseIndex(readFileSync(file));
  } catch {
    paths = undefined; // unreadable (a folder, no permission): the caller asks
  }
  if (indexCache.size >= INDEX_CACHE_SIZE) indexCache.delete(indexCache.keys().next().value as string);
  indexCache.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, paths });
  return paths;
}

/** The git folder of the repository holding `folder`: `.git` as a folder, or the `gitdir:` a `.git` file names. */
function findGitDir(folder: string): string | undefined {
  for (let at = folder; ; at = dirname(at)) {
    const dotGit = join(at, '.git');
    try {
      if (statSync(dotGit).isDirectory()) return dotGit;
      const line = /^gitdir: (.*)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1];
      if (line !== undefined) return isAbsolute(line) ? line : resolve(at, line);
    } catch {
      // no .git here
    }
    if (dirname(at) === at) return undefined;
  }
}

/**
 * The paths of a git index file, versions 2 to 4 (gitformat-index(5)): a 12-byte header, then per entry 40 bytes of
 * stat data, the object name (20 bytes for SHA-1, 32 for SHA-256: tried in turn), 16 bits of flags (and 16 more in
 * version 3 when the extended flag is set), and the path: NUL-terminated and padded to 8 bytes in versions 2 and 3,
 * in version 4 a varint count of characters dropped from the previous path then the rest, NUL-terminated.
 * Undefined when the file is not an index this reads.
 */
function parseIndex(data: Buffer): string[] | undefined {
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = data.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = data.readUInt32BE(8);
  return tryEntries(data, version, count, 20) ?? tryEntries(data, version, count, 32);
}

function tryEntries(data: Buffer, version: number, count: number, hash: number): string[] | undefined {
  const paths: string[] = [];
  let at = 12;
  let previous = '';
  for (let n = 0; n < count; n++) {
    const start = at;
    at += 40 + hash;
    if (at + 2 > data.length) return undefined;
    const flags = data.readUInt16BE(at);
    at += 2;
    if (version >= 3 && (flags & 0x4000) !== 0) at += 2;
    let path: string;
    if (version === 4) {
      let drop = 0;
      let byte: number;
      do {
        if (at >= data.length) return undefined;
        byte = data[at++]!;
        drop = (drop << 7) | (byte & 0x7f);
        if ((byte & 0x80) !== 0) drop++;
      } while ((byte & 0x80) !== 0);
      const end = data.indexOf(0, at);
      if (end < 0 || drop > previous.length) return undefined;
      path = previous.slice(0, previous.length - drop) + data.toString('utf8', at, end);
      at = end + 1;
    } else {
      const end = data.indexOf(0, at);
      if (end < 0) return undefined;
      path = data.toString('utf8', at, end);
      const length = end - start;
      at = start + Math.ceil((length + 1) / 8) * 8;
    }
    if ((flags & 0xfff) !== 0xfff && (flags & 0xfff) !== Buffer.byteLength(path)) return undefined;
    paths.push(path);
    previous = path;
  }
  return paths;
}
