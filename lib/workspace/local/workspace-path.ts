import { normalizeSegments } from '../../fs/path-segments';
import { isWithin } from '../../fs/path-within';
import { InvalidPathError, PathOutsideWorkspaceError } from '../errors';

/**
 * Turns a caller's path into root-relative segments without touching the disk: checks it is a string without NUL,
 * maps an absolute path that lies under one of `roots` to its relative part (refusing any other), and applies `.`
 * and `..` to the path as written, refusing any `..` that would climb above the root. Symbolic links are dealt
 * with later, by `locate`.
 *
 * @param requested - the caller's path (relative to the root, or absolute).
 * @param roots - absolute spellings of the root (its real path first, then the path as configured).
 * @returns the segments, none of them empty, `.` or `..`; an empty array for the root itself.
 * @throws InvalidPathError (`INVALID_PATH`), PathOutsideWorkspaceError (`PATH_OUTSIDE_WORKSPACE`).
 */
export function toSegments(requested: unknown, roots: readonly string[]): string[] {
  const path = checkPathString(requested);
  let relative = path;
  if (path.startsWith('/')) {
    const root = roots.find((r) => isWithin(r, path));
    if (root === undefined) throw new PathOutsideWorkspaceError(path, 'an absolute path must lie inside the workspace root');
    relative = path.slice(root.length);
  }
  return normalizeSegments(relative.split('/'), () => new PathOutsideWorkspaceError(path, "its '..' segments climb above the root"));
}

/** Checks that a path or pattern is a string without NUL bytes. @throws InvalidPathError. */
export function checkPathString(requested: unknown): string {
  if (typeof requested !== 'string') {
    throw new InvalidPathError(String(requested), `a path must be a string, got ${requested === null ? 'null' : typeof requested}`);
  }
  if (requested.includes('\0')) throw new InvalidPathError(requested, 'it contains a NUL byte, which no file name may hold');
  return requested;
}

/** Joins segments into the root-relative POSIX form used in entries (`.` for the root). */
export function toRelative(segments: readonly string[]): string {
  return segments.length === 0 ? '.' : segments.join('/');
}
