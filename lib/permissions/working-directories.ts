import { resolve } from 'node:path';
import { isWithin } from '../fs/path-within';
import { resolveRealPath } from '../fs/resolve-real-path';

/**
 * The real path of `path`: the file the kernel would reach, links resolved component by component before `..` is
 * applied (so `<wd>/link/../key` lands beside the link's target). A path that does not exist yet keeps its missing
 * tail on top of the deepest existing folder. Relative paths resolve against `base`.
 *
 * @throws PathResolutionError (`PATH_UNRESOLVABLE`) on a link loop, a file used as a folder, or a folder that cannot
 *   be read: callers that judge safety must treat that as "no".
 */
export function realPathOf(path: string, base: string = process.cwd()): string {
  return resolveRealPath(path, resolve(base));
}

/** Options of {@link isInsideWorkingDirectories}. */
export interface WorkingDirectoryOptions {
  /** Folder a relative `path` resolves against (default: the first directory). */
  readonly cwd?: string;
  /** Compare without regard to case (default false). */
  readonly caseInsensitive?: boolean;
}

/**
 * Whether `path` lies inside one of `directories` (or is one of them), links resolved on both sides, so a link
 * inside a working directory that leads outside it is outside. With no directories, nothing is inside; a path or
 * directory whose links cannot be resolved is not inside (fail closed).
 */
export function isInsideWorkingDirectories(path: string, directories: readonly string[], options: WorkingDirectoryOptions = {}): boolean {
  if (directories.length === 0) return false;
  let target: string;
  try {
    target = resolveRealPath(path, resolve(options.cwd ?? directories[0]!));
  } catch {
    return false;
  }
  return directories.some((directory) => {
    try {
      return isWithin(resolveRealPath(directory), target, { caseInsensitive: options.caseInsensitive === true });
    } catch {
      return false;
    }
  });
}
