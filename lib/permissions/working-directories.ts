import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * The real path of `path` (symlinks resolved): a path that does not exist yet (a file about to be written) keeps
 * its missing tail on top of the real path of its nearest existing ancestor. Relative paths resolve against `base`.
 */
export function realPathOf(path: string, base: string = process.cwd()): string {
  const absolute = resolve(base, path);
  const tail: string[] = [];
  for (let current = absolute; ; current = dirname(current)) {
    try {
      return join(realpathSync.native(current), ...tail.reverse());
    } catch {
      if (dirname(current) === current) return absolute;
      tail.push(basename(current));
    }
  }
}

/**
 * Whether `path` lies inside one of `directories` (or is one of them), after resolving symlinks on both sides
 * (reference semantics section 5), so a symlink inside a working directory that points outside it is outside.
 * A relative `path` resolves against the first directory. With no directories, nothing is inside.
 */
export function isInsideWorkingDirectories(path: string, directories: readonly string[]): boolean {
  if (directories.length === 0) return false;
  const target = realPathOf(path, resolve(directories[0]!));
  return directories.some((directory) => {
    const rel = relative(realPathOf(directory), target);
    return rel === '' || (rel.split(sep)[0] !== '..' && !isAbsolute(rel));
  });
}
