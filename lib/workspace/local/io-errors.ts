import { ConfinedFsError, errnoOf } from '../../fs/errors';
import {
  AlreadyExistsError,
  FileTooLargeError,
  InvalidPathError,
  NotADirectoryError,
  NotAFileError,
  NotFoundError,
  PathChangedError,
  PathOutsideWorkspaceError,
  WorkspaceError,
  WorkspaceIoError,
} from '../errors';

export { describeKind, errnoOf } from '../../fs/errors';

/**
 * Turns whatever an operation threw into a {@link WorkspaceError}: workspace errors pass through unchanged, refusals
 * of the confined file access get their workspace class (outside the root -> PATH_OUTSIDE_WORKSPACE, a swap ->
 * PATH_CHANGED, ...), Node system errors get the matching class (`ENOENT` -> NOT_FOUND, `ENOTDIR` -> NOT_A_DIRECTORY,
 * `EISDIR` -> NOT_A_FILE, `EEXIST` -> ALREADY_EXISTS, `ELOOP` -> INVALID_PATH), anything else becomes IO_ERROR with the
 * original as `cause`.
 *
 * @param action - what was being done, as a verb phrase for the message ("read", "write").
 */
export function toWorkspaceError(error: unknown, requested: string, action: string): WorkspaceError {
  if (error instanceof WorkspaceError) return error;
  if (error instanceof ConfinedFsError) return fromConfined(error, requested);
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

function fromConfined(error: ConfinedFsError, requested: string): WorkspaceError {
  const detail = error.detail.replace(/outside the root$/, 'outside the workspace root');
  switch (error.code) {
    case 'FS_OUTSIDE_ROOT':
      return new PathOutsideWorkspaceError(requested, detail);
    case 'FS_PATH_CHANGED':
      return new PathChangedError(requested, detail);
    case 'FS_NOT_A_FILE':
      return new NotAFileError(requested, error.kind!);
    case 'FS_NOT_A_DIRECTORY':
      return new NotADirectoryError(requested, { cause: error });
    case 'FS_NOT_FOUND':
      return new NotFoundError(requested, { cause: error });
    case 'FS_TOO_LARGE':
      return new FileTooLargeError(requested, error.size!, error.limit!);
    case 'FS_LINK_LOOP':
      return new InvalidPathError(requested, detail);
  }
}
