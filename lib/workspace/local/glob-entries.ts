import { lstatSync } from 'node:fs';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { glob as tinyglobby } from 'tinyglobby';
import type { Entry } from '../entry';
import { PathOutsideWorkspaceError } from '../errors';
import type { GlobOptions } from '../workspace';
import { withDirectorySync } from '../../fs/directory-handle';
import { errnoOf } from '../../fs/errors';
import { byPath, toEntry } from './to-entry';
import { checkPathString } from './workspace-path';

const CALLS_PER_TURN = 512;

/**
 * `Workspace.glob` for the local disk. Matching and the directory walk are tinyglobby's (picomatch syntax), rooted
 * at the real root, never following symbolic links. Confinement is then checked on what was found, not assumed:
 * every match must be a plain relative path, and each folder holding matches is opened and verified to lie inside
 * the root (`withDirectorySync`) before its matches are described through it; matches that vanished meanwhile or
 * turned into links are left out.
 *
 * @param root - absolute real path of the workspace root.
 * @throws InvalidPathError (not a string, NUL), PathOutsideWorkspaceError (absolute pattern, a `..` segment, or a
 * match outside the root, for example through a link named in the pattern), or Node's error.
 */
export async function globEntries(root: string, pattern: string, options: GlobOptions = {}): Promise<Entry[]> {
  checkPattern(pattern);
  const found = await tinyglobby(pattern, {
    cwd: root,
    dot: options.dot === true,
    followSymbolicLinks: false,
    expandDirectories: false,
    onlyFiles: false,
  });
  const byFolder = new Map<string, string[]>();
  for (const match of found) {
    const path = match.endsWith('/') ? match.slice(0, -1) : match;
    if (path === '.' || path === '') continue;
    if (path.startsWith('/') || path.split('/').some((s) => s === '..' || s === '.' || s === '')) {
      throw new PathOutsideWorkspaceError(pattern, `the match '${match}' lies outside the workspace root`);
    }
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
