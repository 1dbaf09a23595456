import { mkdirSync, readdirSync, realpathSync } from 'node:fs';
import { readdir, lstat } from 'node:fs/promises';
import { isUtf8 } from 'node:buffer';
import { resolve } from 'node:path';
import type { Entry } from '../entry';
import { AlreadyExistsError, FileTooLargeError, InvalidArgumentError, NotADirectoryError, NotAFileError, NotFoundError, NotTextError } from '../errors';
import type { EditOptions, GlobOptions, Workspace, WriteOptions } from '../workspace';
import { writeAtomic } from './atomic-write';
import { globEntries } from './glob-entries';
import { withDirectory } from '../../fs/directory-handle';
import { describeKind, errnoOf, toWorkspaceError } from './io-errors';
import { locate, type Located, type LocateOptions, type RootPaths } from '../../fs/locate';
import { readBounded, type ReadResult } from '../../fs/read-bounded';
import { checkEditArguments, replaceText } from './replace-text';
import { byPath, toEntry } from './to-entry';
import { toRelative, toSegments } from './workspace-path';

/** Options of {@link LocalWorkspace}. */
export interface LocalWorkspaceOptions {
  /** Largest file, in bytes, that may be read or written (a positive integer). Default 10 MiB (10 485 760). */
  readonly maxFileSize?: number;
}

/** Default {@link LocalWorkspaceOptions.maxFileSize}: 10 MiB. */
export const DEFAULT_MAX_FILE_SIZE = 10 * 1024 * 1024;

/**
 * The {@link Workspace} port on the local disk, confined to one root folder.
 *
 * Every operation goes through one gate (`locate`): the path is checked and normalised without the disk, then the
 * deepest existing folder is opened and the kernel asked where it really is, and only then is a single name looked
 * at through that open folder, with `O_NOFOLLOW`. Links are followed only while they stay inside the root. Writes
 * are atomic (temporary file, fsync, rename) and keep the file's mode. See docs/workspace.md for the guarantees
 * and their limits.
 *
 * @example
 * ```ts
 * const workspace = new LocalWorkspace('./project');
 * await workspace.writeFile('src/example.ts', 'console.log("hello");\n');
 * const entries = await workspace.listDir('src');
 * const source = await workspace.readFile(entries[0]!.path);
 * ```
 */
export class LocalWorkspace implements Workspace {
  /** Absolute real path of the root folder (links resolved), created by the constructor when missing. */
  readonly root: string;
  /** Largest file, in bytes, that may be read or written. */
  readonly maxFileSize: number;
  readonly #paths: RootPaths;

  /**
   * @param root - the root folder, absolute or relative to the current directory; created (with its parents) when
   * missing.
   * @throws InvalidArgumentError (`maxFileSize` not a positive integer, root not a string), NotADirectoryError
   * (root is a file), WorkspaceIoError (root cannot be created or read).
   */
  constructor(root: string, options: LocalWorkspaceOptions = {}) {
    const maxFileSize = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
    if (!Number.isSafeInteger(maxFileSize) || maxFileSize <= 0) {
      throw new InvalidArgumentError(String(root), `maxFileSize must be a positive integer number of bytes, got ${String(options.maxFileSize)}.`);
    }
    if (typeof root !== 'string' || root === '' || root.includes('\0')) {
      throw new InvalidArgumentError(String(root), 'The workspace root must be a non-empty path string without NUL bytes.');
    }
    const configured = resolve(root);
    try {
      mkdirSync(configured, { recursive: true });
      this.root = realpathSync(configured);
      readdirSync(this.root);
    } catch (error) {
      if (errnoOf(error) === 'EEXIST') throw new NotADirectoryError(root, { cause: error });
      throw toWorkspaceError(error, root, 'create or open the workspace root');
    }
    this.maxFileSize = maxFileSize;
    this.#paths = { real: this.root, accepted: [...new Set([this.root, configured])] };
  }

  /** {@inheritDoc Workspace.readFile} */
  async readFile(path: string): Promise<string> {
    const { bytes } = await this.#readVerified(path);
    if (!isUtf8(bytes)) throw new NotTextError(path);
    return bytes.toString('utf8');
  }

  /** {@inheritDoc Workspace.readBytes} */
  async readBytes(path: string): Promise<Uint8Array> {
    return (await this.#readVerified(path)).bytes;
  }

  /** {@inheritDoc Workspace.writeFile} */
  async writeFile(path: string, content: string, options: WriteOptions = {}): Promise<void> {
    if (typeof content !== 'string') {
      throw new InvalidArgumentError(String(path), `Cannot write '${String(path)}': content must be a string (use writeBytes for bytes).`);
    }
    await this.#write(path, Buffer.from(content, 'utf8'), options);
  }

  /** {@inheritDoc Workspace.writeBytes} */
  async writeBytes(path: string, content: Uint8Array, options: WriteOptions = {}): Promise<void> {
    if (!(content instanceof Uint8Array)) {
      throw new InvalidArgumentError(String(path), `Cannot write '${String(path)}': content must be a Uint8Array (use writeFile for text).`);
    }
    await this.#write(path, content, options);
  }

  /** {@inheritDoc Workspace.editFile} */
  async editFile(path: string, oldText: string, newText: string, options: EditOptions = {}): Promise<number> {
    const segments = toSegments(path, this.#paths.accepted);
    checkEditArguments(oldText, newText, path);
    return this.#withLocated(path, segments, 'edit', { createParents: false }, async ({ dir, name, stats }) => {
      if (name === null) throw new NotAFileError(path, 'the workspace root, a directory');
      if (stats === null) throw new NotFoundError(path);
      if (!stats.isFile()) throw new NotAFileError(path, describeKind(stats));
      const read = await readBounded(dir, name, path, this.maxFileSize);
      if (!isUtf8(read.bytes)) throw new NotTextError(path);
      const edited = replaceText(read.bytes.toString('utf8'), oldText, newText, options.replaceAll === true, path);
      const data = Buffer.from(edited.content, 'utf8');
      if (data.length > this.maxFileSize) throw new FileTooLargeError(path, data.length, this.maxFileSize);
      await writeAtomic(dir, name, path, data, { overwrite: true, mode: read.stats.mode, unchangedSince: read.stats });
      return edited.count;
    });
  }

  /** {@inheritDoc Workspace.glob} */
  async glob(pattern: string, options: GlobOptions = {}): Promise<Entry[]> {
    try {
      return await globEntries(this.root, pattern, options);
    } catch (error) {
      throw toWorkspaceError(error, String(pattern), 'search');
    }
  }

  /** {@inheritDoc Workspace.listDir} */
  async listDir(path = '.'): Promise<Entry[]> {
    const segments = toSegments(path, this.#paths.accepted);
    return this.#withLocated(path, segments, 'list', {}, async ({ dir, name, stats }) => {
      if (stats === null) throw new NotFoundError(path);
      if (!stats.isDirectory()) throw new NotADirectoryError(path);
      const prefix = segments.length === 0 ? '' : `${toRelative(segments)}/`;
      // Opened and verified again by itself: a folder swapped for a link meanwhile is caught, not followed out.
      return withDirectory(this.root, name === null ? [] : [...dir.segments, name], path, async (listed) => {
        const names = await readdir(listed.view);
        const entries = await Promise.all(names.map(async (n) => {
          const entryStats = await lstat(`${listed.view}/${n}`).catch(() => null);
          return entryStats === null ? null : toEntry(prefix + n, entryStats);
        }));
        return entries.filter((e): e is Entry => e !== null).sort(byPath);
      });
    });
  }

  /** {@inheritDoc Workspace.stat} */
  async stat(path: string): Promise<Entry | null> {
    const segments = toSegments(path, this.#paths.accepted);
    try {
      return await this.#withLocated(path, segments, 'stat', {}, async ({ stats, followedLink }) =>
        stats === null ? null : toEntry(toRelative(segments), stats, followedLink));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'NOT_FOUND' || code === 'NOT_A_DIRECTORY') return null;
      throw error;
    }
  }

  async #readVerified(path: string): Promise<ReadResult> {
    const segments = toSegments(path, this.#paths.accepted);
    return this.#withLocated(path, segments, 'read', {}, async ({ dir, name, stats }) => {
      if (name === null) throw new NotAFileError(path, 'the workspace root, a directory');
      if (stats === null) throw new NotFoundError(path);
      // Checked before opening so that a FIFO or device is never opened; readBounded checks again what it opened.
      if (!stats.isFile()) throw new NotAFileError(path, describeKind(stats));
      return readBounded(dir, name, path, this.maxFileSize);
    });
  }

  async #write(path: string, data: Uint8Array, options: WriteOptions): Promise<void> {
    const segments = toSegments(path, this.#paths.accepted);
    if (data.length > this.maxFileSize) throw new FileTooLargeError(path, data.length, this.maxFileSize);
    await this.#withLocated(path, segments, 'write', { createParents: true }, async ({ dir, name, stats }) => {
      if (name === null) throw new NotAFileError(path, 'the workspace root, a directory');
      if (stats !== null && !stats.isFile()) throw new NotAFileError(path, describeKind(stats));
      const overwrite = options.overwrite !== false;
      if (!overwrite && stats !== null) throw new AlreadyExistsError(path);
      await writeAtomic(dir, name, path, data, { overwrite, mode: stats?.mode });
    });
  }

  /** Locates `segments`, runs `use`, always closes the folder, and turns every failure into a WorkspaceError. */
  async #withLocated<T>(path: string, segments: string[], action: string, options: LocateOptions,
    use: (located: Located) => Promise<T>): Promise<T> {
    try {
      const located = await locate(this.#paths, segments, path, options);
      try {
        return await use(located);
      } finally {
        await located.dir.close();
      }
    } catch (error) {
      throw toWorkspaceError(error, path, action);
    }
  }
}
