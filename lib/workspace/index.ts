/**
 * `agenttoolkit/workspace`: the Workspace port (file access confined to one root), its entry and error types, and
 * the local-disk adapter. See docs/workspace.md.
 */
export type { Entry } from './entry';
export type { EditOptions, GlobOptions, Workspace, WriteOptions } from './workspace';
export {
  AlreadyExistsError,
  AmbiguousMatchError,
  FileTooLargeError,
  InvalidArgumentError,
  InvalidPathError,
  NotADirectoryError,
  NotAFileError,
  NotFoundError,
  NotTextError,
  PathChangedError,
  PathOutsideWorkspaceError,
  TextNotFoundError,
  WorkspaceError,
  WorkspaceIoError,
} from './errors';
export type { WorkspaceErrorCode } from './errors';
export { DEFAULT_MAX_FILE_SIZE, LocalWorkspace } from './local/local-workspace';
export type { LocalWorkspaceOptions } from './local/local-workspace';
