import { lstatSync, opendirSync, readdirSync, type Dir, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Entries read from a folder to find a name whose case can be flipped (a bounded cost per check). */
const ENTRIES_TO_PROBE = 32;

/**
 * Whether some existing part of `path` lies on a file system (or folder) that ignores case, such as FAT, exFAT,
 * NTFS, or macOS's default APFS: then `SECRET/key` and `secret/key` name the same file.
 *
 * Probes, for each existing component, whether the same name with its case flipped reaches an entry that the
 * folder does not list under that spelling; and, for the deepest existing folder, the same for one of its entries
 * (so a file about to be created there is covered too). A probe that fails for any reason but "no such file" counts
 * as "ignores case": callers use the answer to widen deny and ask rules, so doubt must widen them.
 *
 * Limit: an empty folder whose own name lives on a case-sensitive parent (an empty mount point) cannot be probed;
 * set `caseInsensitive` on the permission context for such mounts.
 *
 * @param path - absolute, normalised, with the links of its existing part resolved.
 */
export function foldsCase(path: string): boolean {
  let deepestFolder: string | undefined;
  for (let current = path; dirname(current) !== current; current = dirname(current)) {
    const stat = statOf(current);
    if (stat === 'error') return true;
    if (stat === undefined) continue;
    deepestFolder ??= stat.isDirectory() ? current : dirname(current);
    const answer = probe(dirname(current), basename(current), stat);
    if (answer) return true;
  }
  return deepestFolder !== undefined && probeEntries(deepestFolder);
}

function statOf(path: string): Stats | undefined | 'error' {
  try {
    return lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : 'error';
  }
}

function flip(name: string): string {
  const upper = name.toUpperCase();
  return upper !== name ? upper : name.toLowerCase();
}

/** Whether `folder` resolves `name` with its case flipped to the entry `name` (known to exist, `stat`). */
function probe(folder: string, name: string, stat: Stats): boolean {
  const flipped = flip(name);
  if (flipped === name) return false;
  const other = statOf(join(folder, flipped));
  if (other === 'error') return true;
  if (other === undefined) return false;
  if (other.ino === stat.ino && other.dev === stat.dev) return true;
  // Some file systems (FUSE ones, for example) number inodes per spelling: ask the folder whether both names exist.
  try {
    return !readdirSync(folder).includes(flipped);
  } catch {
    return true;
  }
}

function probeEntries(folder: string): boolean {
  let dir: Dir | undefined;
  try {
    dir = opendirSync(folder);
    for (let n = 0; n < ENTRIES_TO_PROBE; n++) {
      const entry = dir.readSync();
      if (entry === null) return false;
      if (flip(entry.name) === entry.name) continue;
      const stat = statOf(join(folder, entry.name));
      if (stat === 'error') return true;
      return stat !== undefined && probe(folder, entry.name, stat);
    }
    return false;
  } catch {
    return true;
  } finally {
    if (dir !== undefined) closeQuietly(dir);
  }
}

function closeQuietly(dir: Dir): void {
  try {
    dir.closeSync();
  } catch {
    // Already closed or never fully opened: nothing to release.
  }
}
