import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { link, lstat, open, rename, unlink } from 'node:fs/promises';
import { AlreadyExistsError, PathChangedError } from '../errors';
import type { FolderHandle } from '../../fs/directory-handle';
import { cutText } from '../../text/cut-text';
import { errnoOf } from '../../fs/errors';

/** How {@link writeAtomic} treats what is already at the name. */
export interface AtomicWriteOptions {
  /** Replace an existing entry (rename) or refuse with ALREADY_EXISTS (hard link, which fails if the name exists). */
  readonly overwrite: boolean;
  /** Permission bits to give the new file (those of the file it replaces); default: 0o666 minus the umask. */
  readonly mode?: number;
  /** When set, the write is refused (PATH_CHANGED) if the file at the name is no longer this one, unchanged. */
  readonly unchangedSince?: Stats;
}

const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Writes `data` to `name` in the verified folder `dir` so that readers see either the old file or the whole new
 * one: a temporary file in the same folder (exclusive create, no link following), written, given the old mode,
 * flushed with fsync, then renamed over the name (or hard-linked to it when `overwrite` is false) and the folder
 * flushed. The rename replaces a link at the name instead of writing through it. On any failure the temporary file
 * is removed and the name is untouched.
 *
 * @throws AlreadyExistsError (overwrite false and the name exists), PathChangedError (`unchangedSince` no longer
 * holds), or Node's error (disk full, permissions).
 */
export async function writeAtomic(dir: FolderHandle, name: string, requested: string, data: Uint8Array,
  options: AtomicWriteOptions): Promise<void> {
  const temp = `${dir.view}/.${cutText(name, 100, '')}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temp, TEMP_FLAGS, options.mode === undefined ? 0o666 : 0o600);
  let placed = false;
  try {
    try {
      await handle.writeFile(data);
      if (options.mode !== undefined) await handle.chmod(options.mode & 0o7777);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (options.unchangedSince !== undefined) await checkUnchanged(`${dir.view}/${name}`, options.unchangedSince, requested);
    if (options.overwrite) {
      await rename(temp, `${dir.view}/${name}`);
      placed = true;
    } else {
      await link(temp, `${dir.view}/${name}`).catch((error: unknown) => {
        throw errnoOf(error) === 'EEXIST' ? new AlreadyExistsError(requested) : error;
      });
    }
    await dir.sync();
  } finally {
    if (!placed) await unlink(temp).catch(() => undefined);
  }
}

async function checkUnchanged(path: string, before: Stats, requested: string): Promise<void> {
  const now = await lstat(path).catch(() => null);
  if (now === null || now.ino !== before.ino || now.dev !== before.dev || now.mtimeMs !== before.mtimeMs || now.size !== before.size) {
    throw new PathChangedError(requested, 'the file was changed by someone else while it was being edited');
  }
}
