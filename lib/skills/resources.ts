import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SKILL_FILE, isInside } from './skill-folder';

/** Most resource paths listed for one skill; a folder holding more is listed up to this many (sorted walk order). */
export const MAX_SKILL_RESOURCES = 10_000;

/**
 * Lists the files of a skill folder other than its top-level SKILL.md, as sorted POSIX paths relative to the folder
 * (`references/guide.md`, `scripts/search.py`).
 *
 * Folders are walked without following links to folders (no cycles); a link to a file is listed only when it leads
 * inside `root`, so a skill cannot advertise files from elsewhere on the machine. Unreadable folders are skipped.
 *
 * @param directory - the real path of the skill folder.
 * @param root - the real path of its skills root.
 */
export async function listSkillResources(directory: string, root: string): Promise<readonly string[]> {
  const found: string[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries: Dirent[] = await readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (found.length >= MAX_SKILL_RESOURCES) return;
      const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (relative === SKILL_FILE) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path, relative);
      else if (entry.isFile() || (entry.isSymbolicLink() && (await isFileInside(path, root)))) found.push(relative);
    }
  };
  await walk(directory, '');
  return Object.freeze(found.sort());
}

async function isFileInside(path: string, root: string): Promise<boolean> {
  const real = await realpath(path).catch(() => null);
  if (real === null || !isInside(root, real)) return false;
  return (await stat(real)).isFile();
}
