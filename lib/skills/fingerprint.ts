import { type Dirent, type Stats, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SKILL_FILE } from './skill-folder';

/**
 * A cheap fingerprint of what discovery would read: for each root (in order) and each direct sub-folder holding a
 * SKILL.md, the folder name and the file's modification time, size, inode and change time (ms, keeping the file
 * system's sub-ms digits). It costs one `readdir` per root and one `stat` per sub-folder, and reads no file content.
 *
 * Two equal fingerprints mean no SKILL.md was added, removed, moved, replaced or resized, and none was written with a
 * new timestamp (the inode and ctime also catch an atomic replace within one mtime tick). An unreadable root gives a marker, so it appearing again changes the print.
 *
 * The calls are synchronous on purpose: a `stat` takes microseconds, while a thread-pool round trip per file costs
 * several times more (1,000 skills: a few ms blocking, against 10-40 ms asynchronously; see bench/skills.bench.ts).
 *
 * @param roots - absolute roots, as given to discovery.
 */
export function fingerprintSkills(roots: readonly string[]): string {
  const parts: string[] = [];
  roots.forEach((root, index) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(root, { withFileTypes: true });
    } catch (error) {
      parts.push(`${index}!${(error as NodeJS.ErrnoException).code ?? 'error'}`);
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
      const info = statIfAny(join(root, entry.name, SKILL_FILE));
      if (info !== undefined) parts.push(`${index}/${entry.name}:${info.mtimeMs}:${info.size}:${info.ino}:${info.ctimeMs}`);
    }
  });
  parts.sort();
  return parts.join('\n');
}

/** `stat`, or undefined when there is nothing readable there (missing, a link to a file, a dangling link). */
function statIfAny(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
