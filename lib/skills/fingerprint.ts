import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SKILL_FILE } from './skill-folder';

/**
 * A cheap fingerprint of what discovery would read: for each root (in order) and each direct sub-folder holding a
 * SKILL.md, the folder name and the file's modification time, size, inode and change time (ms, keeping the file
 * system's sub-ms digits). It costs one `readdir` per root and one `stat` per sub-folder, and reads no file content.
 *
 * Two equal fingerprints mean no SKILL.md was added, removed, moved, replaced or resized, and none was written with a
 * new timestamp (the reference fingerprints root, relative path, mtime and size; the inode and ctime also catch an
 * atomic replace within one mtime tick). An unreadable root gives a marker, so it appearing again changes the print.
 *
 * @param roots - the configured roots, as given to discovery.
 */
export async function fingerprintSkills(roots: readonly string[]): Promise<string> {
  const parts = await Promise.all(
    roots.map(async (configured, index) => {
      const root = resolve(configured);
      const entries = await readdir(root, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => error.code ?? 'error');
      if (typeof entries === 'string') return `${index}!${entries}`;
      const prints = await Promise.all(
        entries.map(async (entry) => {
          if (!entry.isDirectory() && !entry.isSymbolicLink()) return '';
          const info = await stat(join(root, entry.name, SKILL_FILE)).catch(() => null);
          if (info === null) return '';
          return `${index}/${entry.name}:${info.mtimeMs}:${info.size}:${info.ino}:${info.ctimeMs}`;
        }),
      );
      return prints.filter((p) => p !== '').sort().join('\n');
    }),
  );
  return parts.join('\n');
}
