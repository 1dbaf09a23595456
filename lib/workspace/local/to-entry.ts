import type { Stats } from 'node:fs';
import type { Entry } from '../entry';

/**
 * Builds a frozen {@link Entry}. With `followed` false, `stats` come from `lstat` and a link is described as a link
 * (no size, not a directory, nothing about its target); with `followed` true they describe the link's target.
 */
export function toEntry(path: string, stats: Stats, followed = false): Entry {
  const isSymlink = followed || stats.isSymbolicLink();
  const isDirectory = stats.isDirectory();
  const sized = !isDirectory && (followed || !stats.isSymbolicLink());
  return Object.freeze({ path, isDirectory, isSymlink, size: sized ? stats.size : null, modifiedMs: stats.mtimeMs });
}

/** Orders entries by path, comparing UTF-16 code units (the same order on every platform and locale). */
export function byPath(a: Entry, b: Entry): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
