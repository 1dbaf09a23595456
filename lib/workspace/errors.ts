import { AgentToolkitError } from '../errors';

/**
 * Stable codes of {@link WorkspaceError}. Match on these, never on message text.
 *
 * | code | thrown when |
 * |---|---|
 * | `PATH_OUTSIDE_WORKSPACE` | a path, glob pattern, glob match or symbolic link would lead outside the root |
 * | `INVALID_PATH` | a path is not a string, holds a NUL byte, or loops through symbolic links |
 * | `INVALID_ARGUMENT` | another argument is unusable (empty `oldText`, content of the wrong type, bad option) |
 * | `NOT_FOUND` | nothing exists at the path (stat returns null instead) |
 * | `NOT_A_FILE` | a file operation met a directory or a special file (FIFO, socket, device) |
 * | `NOT_A_DIRECTORY` | listDir met a file, or a folder on the way to a path is a file |
 * | `ALREADY_EXISTS` | a write with `overwrite: false` met an existing entry |
 * | `FILE_TOO_LARGE` | a file to read, or content to write, is over the size limit |
 * | `NOT_TEXT` | readFile or editFile met bytes that are not valid UTF-8 |
 * | `TEXT_NOT_FOUND` | editFile found no occurrence of the old text |
 * | `AMBIGUOUS_MATCH` | editFile found several occurrences without `replaceAll` |
 * | `PATH_CHANGED` | the file system changed under the call (a path was swapped, a file edited meanwhile) |
 * | `IO_ERROR` | the operating system refused for another reason (permissions, disk full); `cause` holds it |
 */
export type WorkspaceErrorCode =
  | 'PATH_OUTSIDE_WORKSPACE'
  | 'INVALID_PATH'
  | 'INVALID_ARGUMENT'
  | 'NOT_FOUND'
  | 'NOT_A_FILE'
  | 'NOT_A_DIRECTORY'
  | 'ALREADY_EXISTS'
  | 'FILE_TOO_LARGE'
  | 'NOT_TEXT'
  | 'TEXT_NOT_FOUND'
  | 'AMBIGUOUS_MATCH'
  | 'PATH_CHANGED'
  | 'IO_ERROR';

/** Base class of every refusal of a {@link Workspace}; `path` is the path (or pattern) as the caller gave it. */
export class WorkspaceError extends AgentToolkitError<WorkspaceErrorCode> {
  /** The path or glob pattern the caller asked for, as given. */
  readonly path: string;

  /**
   * @param code - see {@link WorkspaceErrorCode}.
   * @param path - the path as the caller gave it.
   * @param message - what was asked, why it was refused, how to fix it.
   */
  constructor(code: WorkspaceErrorCode, path: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.path = path;
  }
}

/** `PATH_OUTSIDE_WORKSPACE`: the path would lead outside the root; `reason` says how (`..`, absolute, link). */
export class PathOutsideWorkspaceError extends WorkspaceError {
  constructor(path: string, reason: string) {
    super('PATH_OUTSIDE_WORKSPACE', path,
      `Refused '${path}': ${reason}. Use a path inside the workspace (relative to its root).`);
  }
}

/** `INVALID_PATH`: the path cannot name anything (not a string, NUL byte, symbolic link loop). */
export class InvalidPathError extends WorkspaceError {
  constructor(path: string, reason: string) {
    super('INVALID_PATH', path, `Invalid path '${printable(path)}': ${reason}.`);
  }
}

/** `INVALID_ARGUMENT`: an argument other than the path is unusable; the message names it and what is expected. */
export class InvalidArgumentError extends WorkspaceError {
  constructor(path: string, reason: string) {
    super('INVALID_ARGUMENT', path, reason);
  }
}

/** `NOT_FOUND`: nothing exists at the path. */
export class NotFoundError extends WorkspaceError {
  constructor(path: string, options?: { cause?: unknown }) {
    super('NOT_FOUND', path, `'${path}' does not exist in the workspace. Check the path with listDir or glob.`, options);
  }
}

/** `NOT_A_FILE`: a file operation met a directory or a special file; `kind` names what was found. */
export class NotAFileError extends WorkspaceError {
  constructor(path: string, kind: string) {
    super('NOT_A_FILE', path, `'${path}' is ${kind}, not a regular file.${kind === 'a directory' ? ' Use listDir to see what it holds.' : ''}`);
  }
}

/** `NOT_A_DIRECTORY`: listDir met a file, or a folder on the way to the path is a file. */
export class NotADirectoryError extends WorkspaceError {
  constructor(path: string, options?: { cause?: unknown }) {
    super('NOT_A_DIRECTORY', path, `'${path}' is not a directory, or a folder on the way to it is a file.`, options);
  }
}

/** `ALREADY_EXISTS`: a write with `overwrite: false` met an existing entry. */
export class AlreadyExistsError extends WorkspaceError {
  constructor(path: string) {
    super('ALREADY_EXISTS', path, `'${path}' already exists and overwrite is false. Choose another path or allow overwrite.`);
  }
}

/** `FILE_TOO_LARGE`: `size` bytes is over the `limit` in bytes (LocalWorkspace option `maxFileSize`). */
export class FileTooLargeError extends WorkspaceError {
  /** Size of the file or content, bytes. */
  readonly size: number;
  /** The limit, bytes. */
  readonly limit: number;

  constructor(path: string, size: number, limit: number) {
    super('FILE_TOO_LARGE', path,
      `'${path}' is ${size} bytes, over the workspace limit of ${limit} bytes. Work on a smaller file or raise maxFileSize.`);
    this.size = size;
    this.limit = limit;
  }
}

/** `NOT_TEXT`: the file is not valid UTF-8. */
export class NotTextError extends WorkspaceError {
  constructor(path: string) {
    super('NOT_TEXT', path, `'${path}' is not valid UTF-8 text (it may be binary). Read it with readBytes.`);
  }
}

/** `TEXT_NOT_FOUND`: editFile found no occurrence of the old text. */
export class TextNotFoundError extends WorkspaceError {
  constructor(path: string) {
    super('TEXT_NOT_FOUND', path,
      `The text to replace was not found in '${path}'. Read the file again and copy the old text exactly, whitespace included.`);
  }
}

/** `AMBIGUOUS_MATCH`: editFile found `count` occurrences and `replaceAll` was not set. */
export class AmbiguousMatchError extends WorkspaceError {
  /** How many times the old text occurs. */
  readonly count: number;

  constructor(path: string, count: number) {
    super('AMBIGUOUS_MATCH', path,
      `The text to replace occurs ${count} times in '${path}'. Include more surrounding text to make it unique, or set replaceAll.`);
    this.count = count;
  }
}

/** `PATH_CHANGED`: the file system changed while the call was using the path; nothing was written. Retry. */
export class PathChangedError extends WorkspaceError {
  constructor(path: string, what: string) {
    super('PATH_CHANGED', path, `'${path}' changed while it was being used (${what}); nothing was written. Retry the operation.`);
  }
}

/** `IO_ERROR`: the operating system refused; `errno` is its code (for example `EACCES`), `cause` the error. */
export class WorkspaceIoError extends WorkspaceError {
  /** The system error code, such as `EACCES` or `ENOSPC`; undefined when the cause had none. */
  readonly errno: string | undefined;

  constructor(path: string, action: string, cause: unknown) {
    const errno = (cause as NodeJS.ErrnoException | undefined)?.code;
    super('IO_ERROR', path, `Could not ${action} '${path}': ${describeCause(cause)}.`, { cause });
    this.errno = errno;
  }
}

function describeCause(cause: unknown): string {
  const error = cause as NodeJS.ErrnoException | undefined;
  if (error?.code === 'EACCES' || error?.code === 'EPERM') return `permission denied (${error.code})`;
  if (error?.code === 'ENOSPC') return 'no space left on the device (ENOSPC)';
  if (error?.code === 'EROFS') return 'the file system is read-only (EROFS)';
  return error?.message ?? String(cause);
}

function printable(path: string): string {
  return path.replace(/\0/g, '\\0');
}
