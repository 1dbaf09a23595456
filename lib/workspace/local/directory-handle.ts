import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, realpathSync } from 'node:fs';
import { lstat, open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { PathChangedError, PathOutsideWorkspaceError } from '../errors';
import { errnoOf } from './io-errors';
import { isInside } from './workspace-path';

/**
 * An open directory that is known to lie inside the workspace root, and a way to name things in it that cannot be
 * redirected by a concurrent rename or symbolic-link swap.
 *
 * On Linux, `view` is `/proc/self/fd/<fd>`: the kernel resolves it to the very directory held open, so
 * `${view}/${name}` behaves like `openat(fd, name)`, and the real path of the opened directory is read back from the
 * kernel (no trust in any earlier check). Where `/proc` is missing (macOS, BSD), the real path is resolved first,
 * opened with `O_NOFOLLOW`, and the opened directory compared (device and inode) with that path; a swap of a parent
 * folder between those two steps is then detected only when it persists (see docs/workspace.md).
 */
export interface DirectoryHandle {
  /** Absolute real path of the directory. */
  readonly real: string;
  /** Root-relative segments of the directory (empty for the root). */
  readonly segments: readonly string[];
  /** Path prefix that names exactly this opened directory; join a single name to it. */
  readonly view: string;
  /** Flushes the directory itself to disk (makes a rename durable); best effort, errors are ignored. */
  sync(): Promise<void>;
  /** Closes the directory; safe to call more than once. */
  close(): Promise<void>;
}

const O_DIRECTORY_READ = constants.O_RDONLY | constants.O_DIRECTORY;
let procView: boolean | undefined;

/**
 * Opens `root/segments...` (following links on the way) and checks that what was opened lies inside `root`.
 *
 * @param root - absolute real path of the workspace root.
 * @param segments - root-relative segments (no `.`/`..`).
 * @param requested - the caller's path, for error messages.
 * @throws PathOutsideWorkspaceError when the directory is outside the root; PathChangedError when it changed while
 * being opened; Node's own errors (`ENOENT`, `ENOTDIR`, `ELOOP`, `EACCES`) for the caller to translate.
 */
export async function openDirectory(root: string, segments: readonly string[], requested: string): Promise<DirectoryHandle> {
  const target = segments.length === 0 ? root : `${root}/${segments.join('/')}`;
  if (procView !== false) {
    const handle = await open(target, O_DIRECTORY_READ);
    const real = await openedPath(handle);
    if (real !== null) return confine(root, handle, real, `/proc/self/fd/${handle.fd}`, requested);
  }
  const real = await realpath(target);
  if (!isInside(root, real)) throw outside(requested, real);
  const handle = await open(real, O_DIRECTORY_READ | constants.O_NOFOLLOW).catch((error: unknown) => {
    // realpath just saw a folder here: ELOOP or ENOTDIR (Linux, for a link with O_DIRECTORY) means it was swapped.
    const code = errnoOf(error);
    throw code === 'ELOOP' || code === 'ENOTDIR' ? new PathChangedError(requested, `the folder '${real}' was replaced`) : error;
  });
  try {
    const [opened, named] = await Promise.all([handle.stat(), lstat(real)]);
    if (opened.dev !== named.dev || opened.ino !== named.ino) throw new PathChangedError(requested, `the folder '${real}' was replaced`);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return confine(root, handle, real, real, requested);
}

/** Real path of an open file or directory as the kernel reports it; null (and fallback mode) when it cannot. */
async function openedPath(handle: FileHandle): Promise<string | null> {
  try {
    const real = await readlink(`/proc/self/fd/${handle.fd}`);
    procView = true;
    return real;
  } catch (error) {
    if (procView === true) {
      await handle.close();
      throw error;
    }
    procView = false;
    await handle.close();
    return null;
  }
}

async function confine(root: string, handle: FileHandle, real: string, view: string, requested: string): Promise<DirectoryHandle> {
  if (!isInside(root, real)) {
    await handle.close();
    throw outside(requested, real);
  }
  let closed = false;
  return {
    real,
    segments: real === root ? [] : real.slice(root.length + (root.endsWith('/') ? 0 : 1)).split('/'),
    view,
    sync: () => handle.sync().catch(() => undefined),
    close: async () => {
      if (closed) return;
      closed = true;
      await handle.close();
    },
  };
}

/**
 * Synchronous twin of {@link openDirectory} for bulk work (glob describes thousands of matches): opens and verifies
 * the folder the same way, runs `use` with its `view` and closes it. No threadpool round trip per call, which is
 * what makes describing every match affordable; callers bound how much they do between yields.
 *
 * @throws as {@link openDirectory}.
 */
export function withDirectorySync<T>(root: string, segments: readonly string[], requested: string, use: (view: string) => T): T {
  const target = segments.length === 0 ? root : `${root}/${segments.join('/')}`;
  let fd: number | undefined;
  let real = '';
  if (procView !== false) {
    fd = openSync(target, O_DIRECTORY_READ);
    try {
      real = readlinkSync(`/proc/self/fd/${fd}`);
      procView = true;
    } catch (error) {
      closeSync(fd);
      if (procView === true) throw error;
      procView = false;
      fd = undefined;
    }
  }
  if (fd === undefined) {
    real = realpathSync(target);
    if (!isInside(root, real)) throw outside(requested, real);
    fd = openSync(real, O_DIRECTORY_READ | constants.O_NOFOLLOW);
    const opened = fstatSync(fd);
    const named = lstatSync(real);
    if (opened.dev !== named.dev || opened.ino !== named.ino) {
      closeSync(fd);
      throw new PathChangedError(requested, `the folder '${real}' was replaced`);
    }
  }
  try {
    if (!isInside(root, real)) throw outside(requested, real);
    return use(procView === true ? `/proc/self/fd/${fd}` : real);
  } finally {
    closeSync(fd);
  }
}

function outside(requested: string, real: string): PathOutsideWorkspaceError {
  return new PathOutsideWorkspaceError(requested, `a symbolic link on the way leads to the folder '${real}', outside the workspace root`);
}

/** Runs `use` with an open directory and closes it afterwards, whatever happens. */
export async function withDirectory<T>(root: string, segments: readonly string[], requested: string,
  use: (dir: DirectoryHandle) => Promise<T>): Promise<T> {
  const dir = await openDirectory(root, segments, requested);
  try {
    return await use(dir);
  } finally {
    await dir.close();
  }
}
