import { lstat, mkdir, readlink, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { openDirectory, type DirectoryHandle } from './directory-handle';
import { ConfinedFsError, errnoOf } from './errors';
import { normalizeSegments } from './path-segments';
import { isWithin } from './path-within';

/** Where a caller's path leads once symbolic links inside the root are followed. */
export interface Located {
  /** The open, verified folder that holds the entry (the root's parent is never used: see `name`). */
  readonly dir: DirectoryHandle;
  /** Name of the entry inside `dir`; null when the path leads to the root itself (then `dir` is the root). */
  readonly name: string | null;
  /** `lstat` of the entry through `dir` (never a link: links are followed); null when nothing is there. */
  readonly stats: Stats | null;
  /** True when at least one symbolic link was followed at the end of the path. */
  readonly followedLink: boolean;
}

/** How {@link locate} treats missing folders on the way. */
export interface LocateOptions {
  /** Create missing parent folders (for writes). Default false: a missing folder is `FS_NOT_FOUND`. */
  readonly createParents?: boolean;
}

/** The root in its two spellings: `real` (used for all access) and every accepted absolute form. */
export interface RootPaths {
  readonly real: string;
  readonly accepted: readonly string[];
}

/** Most symbolic links followed for one path; Linux's own limit (`MAXSYMLINKS`) is 40. */
export const MAX_LINKS = 40;

/**
 * Resolves root-relative `segments` to an entry in a verified folder, following symbolic links only while they stay
 * inside the root (relative or absolute targets), creating missing folders when asked. The deepest existing folder
 * is opened and verified (see {@link openDirectory}), then one name at a time is examined through it.
 *
 * The caller must close `located.dir`.
 *
 * @throws ConfinedFsError `FS_OUTSIDE_ROOT` (a link leads out), `FS_LINK_LOOP` (more than 40 links),
 *   `FS_NOT_A_DIRECTORY` (a folder on the way is a file), `FS_NOT_FOUND` (a folder on the way is missing and
 *   `createParents` is false), `FS_PATH_CHANGED` (a link stopped being one while it was read), or Node's error.
 */
export async function locate(root: RootPaths, segments: readonly string[], requested: string,
  options: LocateOptions = {}): Promise<Located> {
  let current = [...segments];
  let links = 0;
  let followedLink = false;
  const follow = async (dir: DirectoryHandle, name: string, rest: readonly string[]): Promise<void> => {
    if (++links > MAX_LINKS) throw new ConfinedFsError('FS_LINK_LOOP', requested, `more than ${MAX_LINKS} symbolic links on the way (a loop?)`);
    const target = await readlink(`${dir.view}/${name}`).catch((error: unknown) => {
      // EINVAL: what was a link a moment ago is no longer one.
      throw errnoOf(error) === 'EINVAL' ? new ConfinedFsError('FS_PATH_CHANGED', requested, `'${name}' stopped being a symbolic link`) : error;
    });
    current = [...linkTarget(root, dir.segments, target, requested, `${[...dir.segments, name].join('/')}`), ...rest];
  };
  for (;;) {
    if (current.length === 0) {
      const stats = await stat(root.real);
      return { dir: await openDirectory(root.real, [], requested), name: null, stats, followedLink };
    }
    const parent = current.slice(0, -1);
    const name = current[current.length - 1]!;
    const opened = await openParent(root, parent, requested, options.createParents === true);
    if ('link' in opened) {
      await follow(opened.dir, opened.link, [...opened.rest, name]).finally(() => opened.dir.close());
      continue;
    }
    const dir = opened.dir;
    let stats: Stats | null;
    try {
      stats = await lstatOrNull(`${dir.view}/${name}`);
      if (stats?.isSymbolicLink()) {
        followedLink = true;
        await follow(dir, name, []);
        await dir.close();
        continue;
      }
    } catch (error) {
      await dir.close();
      throw error;
    }
    return { dir, name, stats, followedLink };
  }
}

type OpenedParent = { dir: DirectoryHandle } | { dir: DirectoryHandle; link: string; rest: string[] };

/**
 * Opens the folder `parent`. When it is missing, walks up to the deepest existing folder and steps down one name
 * at a time: a missing folder is created (or reported), a link is handed back to be followed, a file is refused.
 */
async function openParent(root: RootPaths, parent: readonly string[], requested: string, create: boolean): Promise<OpenedParent> {
  for (let attempt = 0; ; attempt++) {
    try {
      return { dir: await openDirectory(root.real, parent, requested) };
    } catch (error) {
      const code = errnoOf(error);
      if (code === 'ENOTDIR') throw notADirectory(requested, error);
      if (code !== 'ENOENT' || attempt > parent.length + MAX_LINKS) throw error;
    }
    const { dir, depth } = await deepestExisting(root, parent, requested);
    const name = parent[depth]!;
    let keep = false;
    try {
      const stats = await lstatOrNull(`${dir.view}/${name}`);
      if (stats?.isSymbolicLink()) {
        keep = true;
        return { dir, link: name, rest: parent.slice(depth + 1) };
      }
      if (stats !== null && !stats.isDirectory()) throw notADirectory(requested);
      if (stats === null && !create) throw new ConfinedFsError('FS_NOT_FOUND', requested, `the folder '${parent.slice(0, depth + 1).join('/')}' does not exist`);
      if (stats === null) await mkdir(`${dir.view}/${name}`).catch(ignoreExisting);
    } finally {
      if (!keep) await dir.close();
    }
  }
}

/** Opens the deepest existing folder of `parent`; `depth` is the index of the first segment below it. */
async function deepestExisting(root: RootPaths, parent: readonly string[], requested: string): Promise<{ dir: DirectoryHandle; depth: number }> {
  for (let depth = parent.length - 1; depth > 0; depth--) {
    try {
      return { dir: await openDirectory(root.real, parent.slice(0, depth), requested), depth };
    } catch (error) {
      const code = errnoOf(error);
      if (code === 'ENOTDIR') throw notADirectory(requested, error);
      if (code !== 'ENOENT') throw error;
    }
  }
  return { dir: await openDirectory(root.real, [], requested), depth: 0 };
}

/**
 * Where a link named `link` (root-relative, for messages) inside the real folder `dirSegments` points, as
 * root-relative segments: a relative `target` is applied to that folder, an absolute one must lie within the root.
 * @throws ConfinedFsError `FS_OUTSIDE_ROOT` when the target lies outside the root.
 */
function linkTarget(root: RootPaths, dirSegments: readonly string[], target: string, requested: string, link: string): string[] {
  const escape = () => new ConfinedFsError('FS_OUTSIDE_ROOT', requested, `the symbolic link '${link}' points to '${target}', outside the root`);
  if (!target.startsWith('/')) return normalizeSegments(target.split('/'), escape, dirSegments);
  const base = root.accepted.find((r) => isWithin(r, target));
  if (base === undefined) throw escape();
  return normalizeSegments(target.slice(base.length).split('/'), escape);
}

function notADirectory(requested: string, cause?: unknown): ConfinedFsError {
  return new ConfinedFsError('FS_NOT_A_DIRECTORY', requested, 'a folder on the way to it is a file', { cause });
}

async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return null;
    throw error;
  }
}

function ignoreExisting(error: unknown): void {
  if (errnoOf(error) !== 'EEXIST') throw error;
}
