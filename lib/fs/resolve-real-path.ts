import { lstatSync, readlinkSync } from 'node:fs';
import { isAbsolute, parse, resolve, sep } from 'node:path';
import { AgentToolkitError } from '../errors';

/** Code of {@link PathResolutionError}. */
export type PathResolutionErrorCode = 'PATH_UNRESOLVABLE';

/**
 * A path could not be resolved the way the kernel would resolve it: a link loop, too many links, a component that is
 * not a folder, or a component that cannot be read. Callers that judge paths for safety treat it as "deny".
 */
export class PathResolutionError extends AgentToolkitError<PathResolutionErrorCode> {}

/** Most links followed while resolving one path; Linux's own limit (`MAXSYMLINKS`) is 40. */
const MAX_LINKS = 40;

/**
 * Resolves `path` to the file the kernel would reach, component by component: each component is looked up in the
 * folder reached so far, a symbolic link is replaced by its target before the next component is applied, and `..`
 * climbs from the folder actually reached (so `<wd>/link/../key` lands beside the link's target, not in `<wd>`), as
 * path resolution in the kernel does (path_resolution(7)).
 *
 * A path that does not exist yet (a file about to be written) keeps its missing tail, applied lexically on top of the
 * deepest existing folder: missing components cannot be links.
 *
 * @param path - the path to resolve; a relative path resolves against `base`.
 * @param base - absolute folder for relative paths (default: the process's current directory).
 * @param onLink - called with the location of each symbolic link crossed (its folder's links already resolved),
 *   before it is followed; it may throw to stop the resolution.
 * @returns an absolute path with no link in its existing part and no `.` or `..` segment.
 * @throws PathResolutionError (`PATH_UNRESOLVABLE`) on a link loop, more than 40 links, a non-folder used as a
 *   folder, a NUL byte, or a component that cannot be examined (for example for lack of permission).
 */
export function resolveRealPath(path: string, base: string = process.cwd(), onLink?: (link: string) => void): string {
  if (path.includes('\0')) throw unresolvable(path, 'it contains a NUL byte');
  const start = isAbsolute(path) ? path : `${resolve(base)}${sep}${path}`;
  const { root } = parse(start);
  const pending = start.slice(root.length).split(sep).reverse();
  let reached: string[] = [];
  let missing = false;
  let links = 0;
  while (pending.length > 0) {
    const part = pending.pop()!;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      reached.pop();
      continue;
    }
    const candidate = root + [...reached, part].join(sep);
    if (missing) {
      reached.push(part);
      continue;
    }
    const kind = examine(candidate, path);
    if (kind === 'missing') {
      missing = true;
      reached.push(part);
    } else if (kind === 'link') {
      onLink?.(candidate);
      if (++links > MAX_LINKS) throw unresolvable(path, `more than ${MAX_LINKS} symbolic links (a loop?)`);
      const target = readlinkSync(candidate);
      if (isAbsolute(target)) reached = [];
      pending.push(...target.slice(isAbsolute(target) ? parse(target).root.length : 0).split(sep).reverse());
    } else {
      if (pending.some((p) => p !== '' && p !== '.') && kind !== 'directory') {
        throw unresolvable(path, `'${candidate}' is not a folder`);
      }
      reached.push(part);
    }
  }
  return root + reached.join(sep);
}

function examine(candidate: string, original: string): 'missing' | 'link' | 'directory' | 'other' {
  try {
    const stat = lstatSync(candidate);
    if (stat.isSymbolicLink()) return 'link';
    return stat.isDirectory() ? 'directory' : 'other';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'missing';
    throw unresolvable(original, `'${candidate}' cannot be examined (${code ?? 'unknown error'})`, error);
  }
}

function unresolvable(path: string, why: string, cause?: unknown): PathResolutionError {
  return new PathResolutionError(
    'PATH_UNRESOLVABLE',
    `Cannot resolve path '${path}': ${why}. Use a path without link loops whose folders exist and can be read.`,
    cause === undefined ? undefined : { cause },
  );
}
