import { AgentToolkitError } from '../errors';

/**
 * Codes of {@link ConfinedFsError}, the refusals of confined file access. Each area that uses it (the workspace,
 * skills) turns them into its own documented errors; they are not meant to reach a library user.
 *
 * | code | thrown when |
 * |---|---|
 * | `FS_OUTSIDE_ROOT` | an opened folder, or a link on the way, leads outside the root |
 * | `FS_PATH_CHANGED` | a path was swapped between two steps of one access (a folder replaced, a name became a link) |
 * | `FS_NOT_A_FILE` | a read met a directory, FIFO, socket or device (`kind` names it) |
 * | `FS_NOT_A_DIRECTORY` | a folder on the way is a file |
 * | `FS_NOT_FOUND` | a folder on the way is missing |
 * | `FS_TOO_LARGE` | a file is over the read limit (`size`, `limit` in bytes) |
 * | `FS_LINK_LOOP` | more than 40 symbolic links on the way |
 */
export type ConfinedFsErrorCode =
  | 'FS_OUTSIDE_ROOT'
  | 'FS_PATH_CHANGED'
  | 'FS_NOT_A_FILE'
  | 'FS_NOT_A_DIRECTORY'
  | 'FS_NOT_FOUND'
  | 'FS_TOO_LARGE'
  | 'FS_LINK_LOOP';

/** Details a {@link ConfinedFsError} may carry, by code. */
export interface ConfinedFsErrorDetails {
  /** `FS_NOT_A_FILE`: what was found instead ("a directory", "a FIFO (named pipe)", ...). */
  readonly kind?: string;
  /** `FS_TOO_LARGE`: bytes found. */
  readonly size?: number;
  /** `FS_TOO_LARGE`: the limit, bytes. */
  readonly limit?: number;
  /** `FS_OUTSIDE_ROOT`: the real path that lies outside, when known. */
  readonly realPath?: string;
  readonly cause?: unknown;
}

/**
 * A refusal of confined file access: `path` is the caller's path (for messages), `detail` says what happened in a
 * phrase that fits after "refused because", and the optional fields carry the numbers or kinds.
 */
export class ConfinedFsError extends AgentToolkitError<ConfinedFsErrorCode> {
  /** The path as the caller gave it. */
  readonly path: string;
  /** What happened, as a phrase ("the folder '/x' was replaced"). */
  readonly detail: string;
  readonly kind: string | undefined;
  readonly size: number | undefined;
  readonly limit: number | undefined;
  readonly realPath: string | undefined;

  constructor(code: ConfinedFsErrorCode, path: string, detail: string, details: ConfinedFsErrorDetails = {}) {
    super(code, `Refused '${path}': ${detail}.`, details.cause === undefined ? undefined : { cause: details.cause });
    this.path = path;
    this.detail = detail;
    this.kind = details.kind;
    this.size = details.size;
    this.limit = details.limit;
    this.realPath = details.realPath;
  }
}

/** The `code` of a Node system error (`ENOENT`, `EACCES`...), or undefined for anything else. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Describes a file that is not a regular file ("a directory", "a FIFO (named pipe)", ...), for messages. */
export function describeKind(stats: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isSymbolicLink?(): boolean }): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isSymbolicLink?.() === true) return 'a symbolic link';
  return 'a device or other special file';
}
