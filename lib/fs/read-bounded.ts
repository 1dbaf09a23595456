import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { FolderView } from './directory-handle';
import { ConfinedFsError, describeKind, errnoOf } from './errors';

/** Bytes of a file and the `fstat` of the very file that was read. */
export interface ReadResult {
  readonly bytes: Buffer;
  readonly stats: Stats;
}

// O_NOFOLLOW: a link swapped in after the caller looked is refused, not followed. O_NONBLOCK: a FIFO swapped in does
// not block the open (open(2)); it is then refused by the regular-file check on the opened descriptor.
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Reads the whole regular file `name` in the opened folder `dir`, refusing anything over `limit` bytes, both by its
 * size when opened and by what is actually read (a file that grows while being read is refused too): opened with
 * `O_NOFOLLOW | O_NONBLOCK`, checked with `fstat`, read at most `limit + 1` bytes. A swap to a device such as
 * `/dev/zero` or to a FIFO therefore neither hangs nor fills memory.
 *
 * @throws ConfinedFsError `FS_NOT_A_FILE` (directory, FIFO, device), `FS_TOO_LARGE`, `FS_PATH_CHANGED` (the name
 *   became a link); Node's error otherwise (`ENOENT`, `EACCES`).
 */
export async function readBounded(dir: FolderView, name: string, requested: string, limit: number): Promise<ReadResult> {
  let handle: FileHandle;
  try {
    handle = await open(`${dir.view}/${name}`, READ_FLAGS);
  } catch (error) {
    throw becameLink(error, requested);
  }
  try {
    const stats = await handle.stat();
    checkRegular(stats, requested, limit);
    const chunks = new Chunks(stats.size, limit, requested);
    for (;;) {
      const { bytesRead } = await handle.read(chunks.buffer, chunks.length, chunks.wanted, chunks.length);
      if (chunks.add(bytesRead)) break;
    }
    return { bytes: chunks.bytes(), stats };
  } finally {
    await handle.close();
  }
}

/** Synchronous twin of {@link readBounded}, for bulk work (skill discovery). @throws as {@link readBounded}. */
export function readBoundedSync(dir: FolderView, name: string, requested: string, limit: number): ReadResult {
  let fd: number;
  try {
    fd = openSync(`${dir.view}/${name}`, READ_FLAGS);
  } catch (error) {
    throw becameLink(error, requested);
  }
  try {
    const stats = fstatSync(fd);
    checkRegular(stats, requested, limit);
    const chunks = new Chunks(stats.size, limit, requested);
    while (!chunks.add(readSync(fd, chunks.buffer, chunks.length, chunks.wanted, chunks.length)));
    return { bytes: chunks.bytes(), stats };
  } finally {
    closeSync(fd);
  }
}

function becameLink(error: unknown, requested: string): unknown {
  return errnoOf(error) === 'ELOOP' ? new ConfinedFsError('FS_PATH_CHANGED', requested, 'it became a symbolic link') : error;
}

function checkRegular(stats: Stats, requested: string, limit: number): void {
  if (!stats.isFile()) {
    const kind = describeKind(stats);
    throw new ConfinedFsError('FS_NOT_A_FILE', requested, `it is ${kind}, not a regular file`, { kind });
  }
  if (stats.size > limit) throw tooLarge(requested, stats.size, limit);
}

function tooLarge(requested: string, size: number, limit: number): ConfinedFsError {
  return new ConfinedFsError('FS_TOO_LARGE', requested, `it is ${size} bytes, over the limit of ${limit} bytes`, { size, limit });
}

/**
 * The read buffer: one byte more than the size seen by `fstat`, so a file that grew fills it and is read on, and one
 * that did not comes back short (a regular file returns fewer bytes than asked only at its end: no extra read).
 */
class Chunks {
  buffer: Buffer;
  length = 0;

  constructor(expected: number, private readonly limit: number, private readonly requested: string) {
    this.buffer = Buffer.allocUnsafeSlow(Math.min(expected, limit) + 1);
  }

  /** Bytes to ask for next. */
  get wanted(): number {
    return this.buffer.length - this.length;
  }

  /** Records `read` bytes; true when the end of the file was reached. */
  add(read: number): boolean {
    const wanted = this.wanted;
    this.length += read;
    if (read < wanted) return true;
    this.grow();
    return false;
  }

  /** What was read: at most `limit` bytes, since a full buffer of `limit + 1` bytes is refused by `grow`. */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  /** Called when the buffer is full: refuses more than `limit` bytes, else doubles the buffer (up to `limit + 1`). */
  private grow(): void {
    if (this.length > this.limit) throw tooLarge(this.requested, this.length, this.limit);
    const grown = Buffer.allocUnsafeSlow(Math.min(this.buffer.length * 2, this.limit + 1));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}
