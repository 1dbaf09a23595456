import type { Dirent } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { type FolderView, openChildFolder } from '../fs/directory-handle';
import { isWithin } from '../fs/path-within';
import { SKILL_FILE } from './skill-folder';

/** Most resource paths listed for one skill; a folder holding more is listed up to this many (sorted walk order). */
export const MAX_SKILL_RESOURCES = 10_000;

/**
 * Most entries (files, folders and anything else) the walk looks at for one skill, and the deepest folder it enters
 * (the skill folder is depth 0). A skill can be written by an agent: without these bounds, a tree of empty folders
 * made `load()` take seconds, and a chain of nested folders held one open descriptor per level (2,000 and more),
 * which can exhaust the process's descriptors (a soft limit of 1,024 is common) while it runs.
 */
export const MAX_SKILL_ENTRIES_VISITED = 20_000;
export const MAX_SKILL_RESOURCE_DEPTH = 16;
/** Most sub-folders the walk opens for one skill (opening one costs far more than listing a file). */
export const MAX_SKILL_FOLDERS = 1_000;

/**
 * Lists the files of an opened skill folder other than its top-level SKILL.md, as sorted POSIX paths relative to the
 * folder (`references/guide.md`, `scripts/search.py`).
 *
 * The walk goes through opened folders only: each sub-folder is opened from its parent's descriptor without following
 * a link (a sub-folder swapped for a link meanwhile is skipped, never entered), so no listing can come from outside the
 * skill folder. A link to a file is listed only when it resolves to a regular file inside `root`, so a skill cannot
 * advertise files from elsewhere on the machine; links to folders are never followed (no cycles). Unreadable folders
 * are skipped. The walk enters at most {@link MAX_SKILL_RESOURCE_DEPTH} levels of folders, opens at most
 * {@link MAX_SKILL_FOLDERS} folders and looks at no more than {@link MAX_SKILL_ENTRIES_VISITED} entries. Nothing is thrown.
 *
 * @param folder - the opened, verified skill folder.
 * @param root - the real path of its skills root.
 */
export async function listSkillResources(folder: FolderView, root: string): Promise<readonly string[]> {
  const found: string[] = [];
  let visited = 0;
  let folders = 0;
  const walk = async (dir: FolderView, prefix: string, depth: number): Promise<void> => {
    const entries: Dirent[] = await readdir(dir.view, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (found.length >= MAX_SKILL_RESOURCES || ++visited > MAX_SKILL_ENTRIES_VISITED) return;
      const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (relative === SKILL_FILE) continue;
      if (entry.isDirectory()) {
        if (depth < MAX_SKILL_RESOURCE_DEPTH && ++folders <= MAX_SKILL_FOLDERS) await walkChild(dir, entry.name, relative, depth + 1);
      }
      else if (entry.isFile() || (entry.isSymbolicLink() && (await isFileWithin(`${dir.view}/${entry.name}`, root)))) found.push(relative);
    }
  };
  const walkChild = async (dir: FolderView, name: string, relative: string, depth: number): Promise<void> => {
    const child = await openChildFolder(dir, name, relative).catch(() => null);
    if (child === null) return;
    try {
      if (isWithin(root, child.real)) await walk(child, relative, depth);
    } finally {
      await child.close();
    }
  };
  await walk(folder, '', 0);
  return Object.freeze(found.sort());
}

/** Whether the link at `path` resolves to a regular file inside `root` (false when it cannot be resolved). */
async function isFileWithin(path: string, root: string): Promise<boolean> {
  const real = await realpath(path).catch(() => null);
  if (real === null || !isWithin(root, real)) return false;
  return (await lstat(real).catch(() => null))?.isFile() === true;
}
