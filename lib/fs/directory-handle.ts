import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, realpathSync } from 'node:fs';
import { lstat, open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { ConfinedFsError, errnoOf } from './errors';
import { isWithin } from './path-within';

/**
 * An open folder and a way to name things in it that a concurrent rename or symbolic-link swap cannot redirect.
 *
 * On Linux, `view` is `/proc/self/fd/<fd>`: the kernel resolves it to the very folder held open, so `${view}/${name}`
 * behaves like `openat(fd, name)`, and `real` is read back from the kernel (proc(5), `/proc/self/fd`). Where `/proc`
 * is missing (macOS, BSD), `real` is resolved first, opened with `O_NOFOLLOW`, and the opened folder compared (device
 * and inode) with that path; `view` is then `real`, and a parent folder swapped and swapped back between two system
 * calls could redirect one access.
 */
export interface FolderView {
  /** Absolute real path of the folder, as the kernel reports it for the open descriptor. */
  readonly real: string;
  /** Path prefix that names exactly this opened folder; join a single name to it. */
  readonly view: string;
}

/** An open, verified folder (asynchronous API); close it when done. */
export interface FolderHandle extends FolderView {
  /** Flushes the folder itself to disk (makes a rename durable); best effort, errors are ignored. */
  sync(): Promise<void>;
  /** Closes the folder; safe to call more than once. */
  close(): Promise<void>;
}

/** A {@link FolderHandle} known to lie inside a root, with its root-relative place. */
export interface DirectoryHandle extends FolderHandle {
  /** Root-relative segments of the folder (empty for the root). */
  readonly segments: readonly string[];
}

/** An open, verified folder (synchronous API); close it when done. */
export interface FolderHandleSync extends FolderView {
  /** Closes the folder; safe to call more than once. */
  close(): void;
}

// O_NONBLOCK: harmless on a folder, and whatever else was swapped in (a FIFO) cannot block the open.
const O_FOLDER = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NONBLOCK;
let procView: boolean | undefined;

/**
 * Opens the folder at `path`, following symbolic links as the kernel does, and reports where the opened folder
 * really is. Nothing is judged here: compare `real` with a root (see {@link isWithin}) before using the folder.
 *
 * @param path - absolute path of the folder.
 * @param requested - the caller's path, for error messages.
 * @throws ConfinedFsError `FS_PATH_CHANGED` when (without `/proc`) the folder was replaced while being opened; Node's
 *   own errors (`ENOENT`, `ENOTDIR`, `ELOOP`, `EACCES`) for the caller to translate.
 */
export async function openFolder(path: string, requested: string): Promise<FolderHandle> {
  if (procView !== false) {
    const handle = await open(path, O_FOLDER);
    const real = await openedPath(handle);
    if (real !== null) return folderHandle(handle, real, `/proc/self/fd/${handle.fd}`);
  }
  const real = await realpath(path);
  const handle = await open(real, O_FOLDER | constants.O_NOFOLLOW).catch((error: unknown) => {
    throw replacedOr(error, requested, real);
  });
  await checkSame(handle, real, requested);
  await checkStill(handle, real, requested);
  return folderHandle(handle, real, real);
}

/**
 * Opens the entry `name` of the opened folder `parent` as a folder, without following a link at that name (a link
 * or anything but a folder is refused with `ELOOP` or `ENOTDIR` from the kernel).
 *
 * @throws as {@link openFolder}.
 */
export async function openChildFolder(parent: FolderView, name: string, requested: string): Promise<FolderHandle> {
  const flags = O_FOLDER | constants.O_NOFOLLOW;
  if (procView !== false) {
    const handle = await open(`${parent.view}/${name}`, flags);
    const real = await openedPath(handle);
    if (real !== null) return folderHandle(handle, real, `/proc/self/fd/${handle.fd}`);
  }
  const real = `${parent.real}/${name}`;
  const handle = await open(real, flags);
  await checkSame(handle, real, requested);
  await checkStill(handle, real, requested);
  return folderHandle(handle, real, real);
}

/**
 * Opens `root/segments...` (following links on the way, as the kernel does) and checks that what was opened lies
 * within `root`.
 *
 * @param root - absolute real path of the root.
 * @param segments - root-relative segments (no `.`/`..`).
 * @param requested - the caller's path, for error messages.
 * @throws ConfinedFsError `FS_OUTSIDE_ROOT` when the folder is outside the root, `FS_PATH_CHANGED` when it changed
 *   while being opened; Node's own errors (`ENOENT`, `ENOTDIR`, `ELOOP`, `EACCES`) for the caller to translate.
 */
export async function openDirectory(root: string, segments: readonly string[], requested: string): Promise<DirectoryHandle> {
  const folder = await openFolder(joinSegments(root, segments), requested);
  if (!isWithin(root, folder.real)) {
    await folder.close();
    throw outsideRoot(requested, folder.real);
  }
  return { ...folder, segments: segmentsBelow(root, folder.real), close: folder.close, sync: folder.sync };
}

/** Runs `use` with an open, verified folder `root/segments...` and closes it afterwards, whatever happens. */
export async function withDirectory<T>(root: string, segments: readonly string[], requested: string,
  use: (dir: DirectoryHandle) => Promise<T>): Promise<T> {
  const dir = await openDirectory(root, segments, requested);
  try {
    return await use(dir);
  } finally {
    await dir.close();
  }
}

/**
 * Synchronous twin of {@link openFolder}, for bulk work where a thread-pool round trip per call would cost more than
 * the call (describing thousands of glob matches, discovering a thousand skills).
 *
 * @throws as {@link openFolder}.
 */
export function openFolderSync(path: string, requested: string): FolderHandleSync {
  if (procView !== false) {
    const fd = openSync(path, O_FOLDER);
    let real: string | undefined;
    try {
      real = readlinkSync(`/proc/self/fd/${fd}`);
      procView = true;
    } catch (error) {
      closeSync(fd);
      if (procView === true) throw error;
      procView = false;
    }
    if (real !== undefined) return folderHandleSync(fd, real, `/proc/self/fd/${fd}`);
  }
  const real = realpathSync(path);
  let fd: number;
  try {
    fd = openSync(real, O_FOLDER | constants.O_NOFOLLOW);
  } catch (error) {
    throw replacedOr(error, requested, real);
  }
  const opened = fstatSync(fd);
  const named = lstatSync(real, { throwIfNoEntry: false });
  // The open follows links in the parents of `real`: a parent swapped for a link since realpath() was asked makes
  // the path (and the lstat) lead elsewhere; resolving it again shows it.
  if (named === undefined || opened.dev !== named.dev || opened.ino !== named.ino || realpathOrNull(real) !== real) {
    closeSync(fd);
    throw replaced(requested, real);
  }
  return folderHandleSync(fd, real, real);
}

/**
 * Synchronous twin of {@link withDirectory}: opens and verifies `root/segments...` the same way, runs `use` with it
 * and closes it. Callers bound how much they do between yields to the event loop.
 *
 * @throws as {@link openDirectory}.
 */
export function withDirectorySync<T>(root: string, segments: readonly string[], requested: string, use: (dir: FolderView) => T): T {
  const folder = openFolderSync(joinSegments(root, segments), requested);
  try {
    if (!isWithin(root, folder.real)) throw outsideRoot(requested, folder.real);
    return use(folder);
  } finally {
    folder.close();
  }
}

/** The `FS_OUTSIDE_ROOT` refusal for a folder reached through a link. */
export function outsideRoot(requested: string, real: string): ConfinedFsError {
  return new ConfinedFsError('FS_OUTSIDE_ROOT', requested, `a symbolic link on the way leads to the folder '${real}', outside the root`,
    { realPath: real });
}

/** Real path of an open folder as the kernel reports it; null (and fallback mode from now on) when it cannot. */
async function openedPath(handle: FileHandle): Promise<string | null> {
  try {
    const real = await readlink(`/proc/self/fd/${handle.fd}`);
    procView = true;
    return real;
  } catch (error) {
    await handle.close();
    if (procView === true) throw error;
    procView = false;
    return null;
  }
}

async function checkSame(handle: FileHandle, real: string, requested: string): Promise<void> {
  try {
    const [opened, named] = await Promise.all([handle.stat(), lstat(real)]);
    if (opened.dev !== named.dev || opened.ino !== named.ino) throw replaced(requested, real);
  } catch (error) {
    await handle.close();
    throw errnoOf(error) === 'ENOENT' ? replaced(requested, real) : error;
  }
}

/**
 * Refuses a folder reached through a parent swapped for a link after `real` was resolved: `open` follows links in
 * the parents (O_NOFOLLOW guards the last component only), so `real` must still resolve to itself.
 */
async function checkStill(handle: FileHandle, real: string, requested: string): Promise<void> {
  if ((await realpath(real).catch(() => null)) === real) return;
  await handle.close();
  throw replaced(requested, real);
}

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function folderHandle(handle: FileHandle, real: string, view: string): FolderHandle {
  let closed = false;
  return {
    real,
    view,
    sync: () => handle.sync().catch(() => undefined),
    close: async () => {
      if (closed) return;
      closed = true;
      await handle.close();
    },
  };
}

function folderHandleSync(fd: number, real: string, view: string): FolderHandleSync {
  let closed = false;
  return {
    real,
    view,
    close: () => {
      if (closed) return;
      closed = true;
      closeSync(fd);
    },
  };
}

function joinSegments(root: string, segments: readonly string[]): string {
  return segments.length === 0 ? root : `${root.endsWith('/') ? root.slice(0, -1) : root}/${segments.join('/')}`;
}

function segmentsBelow(root: string, real: string): string[] {
  return real === root ? [] : real.slice(root.length + (root.endsWith('/') ? 0 : 1)).split('/');
}

/** ELOOP or ENOTDIR (Linux, for a link opened with O_DIRECTORY|O_NOFOLLOW) right after a folder was seen: a swap. */
function replacedOr(error: unknown, requested: string, real: string): unknown {
  const code = errnoOf(error);
  return code === 'ELOOP' || code === 'ENOTDIR' ? replaced(requested, real) : error;
}

function replaced(requested: string, real: string): ConfinedFsError {
  return new ConfinedFsError('FS_PATH_CHANGED', requested, `the folder '${real}' was replaced`);
}
