import { lstatSync } from 'node:fs';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { glob as tinyglobby } from 'tinyglobby';
import type { Entry } from '../entry';
import { InvalidArgumentError, PathOutsideWorkspaceError } from '../errors';
import type { GlobOptions } from '../workspace';
import { withDirectorySync } from '../../fs/directory-handle';
import { errnoOf } from '../../fs/errors';
import { compileWorkspaceGlob } from '../../fs/workspace-glob';
import { byPath, toEntry } from './to-entry';
import { checkPathString } from './workspace-path';

const CALLS_PER_TURN = 512;
/** Matches tested between two looks at the signal and turns handed back to the event loop. */
const MATCHES_PER_TURN = 2048;

/**
 * `Workspace.glob` for the local disk. The directory walk is tinyglobby's, from the pattern's literal leading folder
 * and no deeper than the pattern can reach, never following symbolic links; the matching is
 * `compileWorkspaceGlob`'s, in time linear in each path (a backtracking matcher blocked the process for 40 s on
 * `*a*a*a*a*a*a*a*a*b`). Confinement is then checked on what was found, not assumed: every match must be a plain
 * relative path, and each folder holding matches is opened and verified to lie inside the root
 * (`withDirectorySync`) before its matches are described through it; matches that vanished meanwhile or turned
 * into links are left out.
 *
 * @param root - absolute real path of the workspace root.
 * @throws InvalidPathError (not a string, NUL), InvalidArgumentError (braces that expand too far),
 * PathOutsideWorkspaceError (absolute pattern, a `..` segment, or a match outside the root, for example through a
 * link named in the pattern), the signal's reason when `options.signal` fires, or Node's error.
 */
export async function globEntries(root: string, pattern: string, options: GlobOptions = {}): Promise<Entry[]> {
  checkPattern(pattern);
  const glob = compileWorkspaceGlob(pattern, { dot: options.dot === true });
  if ('refused' in glob) throw new InvalidArgumentError(pattern, `Cannot search for '${pattern}': ${glob.refused}.`);
  const { signal } = options;
  signal?.throwIfAborted();
  const prefix = glob.base === '' ? '' : `${glob.base}/`;
  const walked = await tinyglobby('**', {
    cwd: glob.base === '' ? root : `${root}/${glob.base}`,
    dot: true,
    followSymbolicLinks: false,
    expandDirectories: false,
    onlyFiles: false,
    deep: glob.depth === Infinity ? undefined : glob.depth,
    signal,
  });
  signal?.throwIfAborted();
  const found: string[] = [];
  for (let i = 0; i < walked.length; i++) {
    if (i % MATCHES_PER_TURN === MATCHES_PER_TURN - 1) {
      await yieldToEventLoop();
      signal?.throwIfAborted();
    }
    const match = walked[i]!;
    const isFolder = match.endsWith('/');
    if (glob.directoriesOnly && !isFolder) continue;
    const path = prefix + (isFolder ? match.slice(0, -1) : match);
    if (path.startsWith('/') || path.split('/').some((s) => s === '..' || s === '.' || s === '')) {
      throw new PathOutsideWorkspaceError(pattern, `the match '${match}' lies outside the workspace root`);
    }
    if (glob.matches(path)) found.push(path);
  }
  if (glob.base !== '' && glob.matches(glob.base)) found.push(glob.base);
  const byFolder = new Map<string, string[]>();
  for (const path of found) {
    const cut = path.lastIndexOf('/');
    const folder = cut < 0 ? '' : path.slice(0, cut);
    const names = byFolder.get(folder);
    if (names === undefined) byFolder.set(folder, [path.slice(cut + 1)]);
    else names.push(path.slice(cut + 1));
  }
  const entries: Entry[] = [];
  let calls = 0;
  for (const [folder, names] of byFolder) {
    // Synchronous file system calls, several times cheaper than promises for thousands of small lstats, handed
    // back to the event loop every CALLS_PER_TURN calls.
    if (calls > CALLS_PER_TURN) {
      calls = 0;
      await yieldToEventLoop();
    }
    calls += names.length + 3;
    describeFolder(root, folder, names, pattern, entries);
  }
  return entries.sort(byPath);
}

/**
 * Describes `names` in `folder` through a verified view of it, appending to `out`. A folder or match that vanished
 * meanwhile, or became a link, is left out.
 */
function describeFolder(root: string, folder: string, names: readonly string[], pattern: string, out: Entry[]): void {
  const prefix = folder === '' ? '' : `${folder}/`;
  try {
    withDirectorySync(root, folder === '' ? [] : folder.split('/'), pattern, ({ view }) => {
      for (const name of names) {
        const stats = lstatSync(`${view}/${name}`, { throwIfNoEntry: false });
        if (stats !== undefined && !stats.isSymbolicLink()) out.push(toEntry(prefix + name, stats));
      }
    });
  } catch (error) {
    const code = errnoOf(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
}

/**
 * Refuses patterns that name something outside the root before any walk: absolute ones (`/x`, `C:/x`, `\\x`) and
 * any `..` segment or alternative, escaped or not (`../x`, `\.\./x`, `{..,a}/x`).
 */
function checkPattern(pattern: string): void {
  checkPathString(pattern);
  const plain = pattern.replace(/\\(.)/g, '$1');
  if (/^(\/|\\|[A-Za-z]:)/.test(pattern) || plain.startsWith('/')) {
    throw new PathOutsideWorkspaceError(pattern, 'a glob pattern must be relative to the workspace root, not absolute');
  }
  if (/(^|[/{,(|])\.\.($|[/},)|])/.test(plain)) {
    throw new PathOutsideWorkspaceError(pattern, "a glob pattern may not contain '..' segments, which climb above the root");
  }
}
