import {
  AlreadyExistsError,
  InvalidPathError,
  NotADirectoryError,
  NotAFileError,
  NotFoundError,
  WorkspaceError,
  WorkspaceIoError,
} from '../errors';

/** The `code` of a Node system error (`ENOENT`, `EACCES`...), or undefined for anything else. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Turns whatever an operation threw into a {@link WorkspaceError}: workspace errors pass through unchanged, Node
 * system errors get the matching class (`ENOENT` -> NOT_FOUND, `ENOTDIR` -> NOT_A_DIRECTORY, `EISDIR` -> NOT_A_FILE,
 * `EEXIST` -> ALREADY_EXISTS, `ELOOP` -> INVALID_PATH), anything else becomes IO_ERROR with the original as `cause`.
 *
 * @param action - what was being done, as a verb phrase for the message ("read", "write").
 */
export function toWorkspaceError(error: unknown, requested: string, action: string): WorkspaceError {
  if (error instanceof WorkspaceError) return error;
  switch (errnoOf(error)) {
    case 'ENOENT':
      return new NotFoundError(requested, { cause: error });
    case 'ENOTDIR':
      return new NotADirectoryError(requested, { cause: error });
    case 'EISDIR':
      return new NotAFileError(requested, 'a directory');
    case 'EEXIST':
      return new AlreadyExistsError(requested);
    case 'ELOOP':
      return new InvalidPathError(requested, 'too many levels of symbolic links');
    default:
      return new WorkspaceIoError(requested, action, error);
  }
}

/** Describes a non-regular file for NOT_A_FILE messages ("a directory", "a FIFO", ...). */
export function describeKind(stats: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean }): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  return 'a device or other special file';
}
