import { sep } from 'node:path';

/**
 * Whether absolute path `path` is `root` itself or lies below it, compared by whole path components: `/w/proj` is
 * within `/w/proj`, `/w/proj/a` is, `/w/proj-evil` is not, and everything is within `/`.
 *
 * This is the library's one containment rule: workspaces, sandbox policies, skill folders and permission working
 * directories all use it, so they agree on every input, the root included. It compares text only: resolve links
 * first (see {@link resolveRealPath}) when the answer must hold for the file the kernel would open. Both arguments
 * must be absolute and normalized (no `.`/`..` segments, no doubled separators), as `path.resolve` returns them.
 *
 * @param root - the containing folder, absolute.
 * @param path - the path to test, absolute.
 * @param options - `caseInsensitive`: compare without regard to case, for case-insensitive file systems (default
 *   false: POSIX file systems are case-sensitive).
 * @returns true when `path` equals `root` or is below it.
 */
export function isWithin(root: string, path: string, options?: { caseInsensitive?: boolean }): boolean {
  if (options?.caseInsensitive === true) {
    root = root.toLowerCase();
    path = path.toLowerCase();
  }
  if (path === root) return true;
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}
