import type { Entry } from './entry';

/** Options of {@link Workspace.writeFile} and {@link Workspace.writeBytes}. */
export interface WriteOptions {
  /**
   * When false, refuse to replace an existing file (`ALREADY_EXISTS`) instead of overwriting it; the check and the
   * creation are one atomic step. Default true.
   */
  readonly overwrite?: boolean;
}

/** Options of {@link Workspace.editFile}. */
export interface EditOptions {
  /** Replace every occurrence of the old text instead of requiring exactly one. Default false. */
  readonly replaceAll?: boolean;
}

/** Options of {@link Workspace.glob}. */
export interface GlobOptions {
  /** Also match names that start with a dot (`.env`, `.git/`). Default false, as in a shell. */
  readonly dot?: boolean;
  /**
   * Stops the search: when it fires, `glob` rejects with the signal's reason (as Node's own APIs do). The built-in
   * Glob tool passes one that fires after its time limit.
   */
  readonly signal?: AbortSignal;
}

/**
 * The Workspace port: file access confined to one root directory. Built-in file tools and the host use only this
 * interface; each backend (the local file system, a container) implements it (docs/workspace.md).
 *
 * Paths are strings relative to the root, with `/` separators; `.` (or the empty string) is the root. `..` is
 * applied to the path as written and may not climb above the root. An absolute path is accepted only when it lies
 * inside the root as the backend sees it. Every method refuses, with a `WorkspaceError` whose `code` says why,
 * anything that would read, write, list or describe something outside the root, symbolic links included.
 *
 * Errors shared by every method: `INVALID_PATH` (not a string, NUL byte, link loop), `PATH_OUTSIDE_WORKSPACE`,
 * `NOT_A_DIRECTORY` (a folder on the way is a file), `PATH_CHANGED` (the file system changed under the call; retry),
 * `IO_ERROR` (anything else the operating system refused, with the original error as `cause`).
 */
export interface Workspace {
  /**
   * Reads a whole UTF-8 text file, bytes kept as they are (no newline or BOM translation).
   * @throws `NOT_FOUND`, `NOT_A_FILE`, `FILE_TOO_LARGE` (over the size limit), `NOT_TEXT` (not valid UTF-8: use
   * {@link Workspace.readBytes}).
   */
  readFile(path: string): Promise<string>;

  /** Reads a whole file as bytes. @throws `NOT_FOUND`, `NOT_A_FILE`, `FILE_TOO_LARGE`. */
  readBytes(path: string): Promise<Uint8Array>;

  /**
   * Writes a UTF-8 text file atomically: readers see the old content or the new, never a part. Missing parent
   * folders are created; an existing file keeps its permission bits.
   * @throws `NOT_A_FILE` (a directory is there), `FILE_TOO_LARGE`, `ALREADY_EXISTS` (with `overwrite: false`).
   */
  writeFile(path: string, content: string, options?: WriteOptions): Promise<void>;

  /** {@link Workspace.writeFile} for bytes. */
  writeBytes(path: string, content: Uint8Array, options?: WriteOptions): Promise<void>;

  /**
   * Replaces `oldText` with `newText` in a text file and writes it back atomically.
   * @returns the number of replacements made (1 unless `replaceAll`).
   * @throws `INVALID_ARGUMENT` (empty `oldText`), `TEXT_NOT_FOUND` (no occurrence), `AMBIGUOUS_MATCH` (several
   * occurrences without `replaceAll`; the error carries the count), plus the errors of readFile and writeFile.
   */
  editFile(path: string, oldText: string, newText: string, options?: EditOptions): Promise<number>;

  /**
   * Finds entries (files and directories) whose root-relative path matches a glob pattern (`*`, `**`, `?`,
   * `[...]`, `{a,b}`; every other character is literal), sorted by path. Symbolic links are neither followed nor
   * listed. Matching takes time linear in each path (no backtracking), whatever the pattern.
   * @throws `INVALID_PATH` (pattern with NUL), `PATH_OUTSIDE_WORKSPACE` (absolute pattern, `..`, or a match that
   * would lie outside the root), `INVALID_ARGUMENT` (braces that expand to more than 256 alternatives or 65,536
   * characters), the signal's reason when `options.signal` fires.
   */
  glob(pattern: string, options?: GlobOptions): Promise<Entry[]>;

  /**
   * Lists the entries of a directory (default: the root), sorted by path. Links are shown as links, never followed.
   * @throws `NOT_FOUND`, `NOT_A_DIRECTORY`.
   */
  listDir(path?: string): Promise<Entry[]>;

  /** Describes one path, following links that stay inside the root. @returns null when nothing is there. */
  stat(path: string): Promise<Entry | null>;
}
