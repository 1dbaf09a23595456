import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { FileTooLargeError, NotAFileError, PathChangedError } from '../errors';
import type { DirectoryHandle } from './directory-handle';
import { describeKind, errnoOf } from './io-errors';

/** Bytes of a file and the `fstat` of the very file that was read. */
export interface ReadResult {
  readonly bytes: Buffer;
  readonly stats: Stats;
}

// O_NOFOLLOW: a link swapped in after `locate` looked is refused, not followed. O_NONBLOCK: a FIFO swapped in does
// not block the open; it is then refused by the regular-file check.
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Reads the whole regular file `name` in the verified folder `dir`, refusing anything over `limit` bytes, both by
 * its size when opened and by what is actually read (a file that grows while being read is refused too).
 *
 * @throws NotAFileError (directory, FIFO, device), FileTooLargeError, PathChangedError (the name became a link), or
 * Node's error.
 */
export async function readBounded(dir: DirectoryHandle, name: string, requested: string, limit: number): Promise<ReadResult> {
  let handle: FileHandle;
  try {
    handle = await open(`${dir.view}/${name}`, READ_FLAGS);
  } catch (error) {
    if (errnoOf(error) === 'ELOOP') throw new PathChangedError(requested, 'it became a symbolic link');
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotAFileError(requested, describeKind(stats));
    if (stats.size > limit) throw new FileTooLargeError(requested, stats.size, limit);
    return { bytes: await readAll(handle, stats.size, limit, requested), stats };
  } finally {
    await handle.close();
  }
}

async function readAll(handle: FileHandle, expected: number, limit: number, requested: string): Promise<Buffer> {
  // One byte more than expected: a file that grew fills it, and is read on; one that did not comes back short.
  let buffer = Buffer.allocUnsafeSlow(Math.min(expected, limit) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > limit) throw new FileTooLargeError(requested, length, limit);
      const grown = Buffer.allocUnsafeSlow(Math.min(buffer.length * 2, limit + 1));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const wanted = buffer.length - length;
    const { bytesRead } = await handle.read(buffer, length, wanted, length);
    length += bytesRead;
    // A regular file returns fewer bytes than asked only at its end: no extra read to find the end.
    if (bytesRead < wanted) break;
  }
  if (length > limit) throw new FileTooLargeError(requested, length, limit);
  return buffer.subarray(0, length);
}
