import type { Dirent } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { type FolderView, openChildFolder } from '../fs/directory-handle';
import { isWithin } from '../fs/path-within';
import { SKILL_FILE } from './skill-folder';

/** Most resource paths listed for one skill; a folder holding more is listed up to this many (sorted walk order). */
export const MAX_SKILL_RESOURCES = 10_000;

/**
 * Lists the files of an opened skill folder other than its top-level SKILL.md, as sorted POSIX paths relative to the
 * folder (`references/guide.md`, `scripts/search.py`).
 *
 * The walk goes through opened folders only: each sub-folder is opened from its parent's descriptor without following
 * a link (a sub-folder swapped for a link meanwhile is skipped, never entered), so no listing can come from outside the
 * skill folder. A link to a file is listed only when it resolves to a regular file inside `root`, so a skill cannot
 * advertise files from elsewhere on the machine; links to folders are never followed (no cycles). Unreadable folders
 * are skipped. Nothing is thrown.
 *
 * @param folder - the opened, verified skill folder.
 * @param root - the real path of its skills root.
 */
export async function listSkillResources(folder: FolderView, root: string): Promise<readonly string[]> {
  const found: string[] = [];
  const walk = async (dir: FolderView, prefix: string): Promise<void> => {
    const entries: Dirent[] = await readdir(dir.view, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (found.length >= MAX_SKILL_RESOURCES) return;
      const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (relative === SKILL_FILE) continue;
      if (entry.isDirectory()) await walkChild(dir, entry.name, relative);
      else if (entry.isFile() || (entry.isSymbolicLink() && (await isFileWithin(`${dir.view}/${entry.name}`, root)))) found.push(relative);
    }
  };
  const walkChild = async (dir: FolderView, name: string, relative: string): Promise<void> => {
    const child = await openChildFolder(dir, name, relative).catch(() => null);
    if (child === null) return;
    try {
      if (isWithin(root, child.real)) await walk(child, relative);
    } finally {
      await child.close();
    }
  };
  await walk(folder, '');
  return Object.freeze(found.sort());
}

/** Whether the link at `path` resolves to a regular file inside `root` (false when it cannot be resolved). */
async function isFileWithin(path: string, root: string): Promise<boolean> {
  const real = await realpath(path).catch(() => null);
  if (real === null || !isWithin(root, real)) return false;
  return (await lstat(real).catch(() => null))?.isFile() === true;
}
