import type { Dirent } from 'node:fs';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { openFolderSync } from '../fs/directory-handle';
import { SkillDiscoveryError, SkillError, SkillReadError, SkillRootError } from './errors';
import type { SkillLimits } from './limits';
import { type FolderKind, type SkillRead, readSkillFolder } from './skill-folder';

/** One skill that a later root's skill of the same name replaced. */
export interface SkillOverride {
  readonly name: string;
  /** Folder of the replaced skill. */
  readonly replaced: string;
  /** Folder of the skill that won. */
  readonly by: string;
}

/** What one discovery found: the winning skills by name (sorted), and every override that happened. */
export interface Discovery {
  readonly skills: ReadonlyMap<string, SkillRead>;
  readonly overrides: readonly SkillOverride[];
}

/**
 * Discovers the skills of every root: each direct sub-folder (in name order) holding a SKILL.md is one skill. A skill
 * of a later root replaces the one of the same name from an earlier root (reported in `overrides`).
 *
 * Synchronous, like {@link readSkillFolder} (whose doc says why). Each root is opened once and listed through its
 * descriptor; each skill folder is opened and judged by where the opened folder really is (see `openSkillFolder`).
 * All-or-nothing: every problem found (a missing root, an invalid SKILL.md, a link out of its root, an unreadable
 * SKILL.md, a swap caught while reading) is collected and thrown together, so the caller keeps its previous skills
 * and the error names each file and rule.
 *
 * @param roots - the configured roots, in priority order (the last wins); relative ones resolve against the cwd.
 * @throws SkillDiscoveryError whose `problems` are SkillRootError, InvalidSkillError, SkillOutsideRootError,
 *   SkillChangedError or SkillReadError.
 */
export function discoverSkills(roots: readonly string[], limits: SkillLimits): Discovery {
  const problems: SkillError[] = [];
  const attempt = <T>(work: () => T): T | null => {
    try {
      return work();
    } catch (error) {
      problems.push(error instanceof SkillError ? error : new SkillReadError('(skills discovery)', error));
      return null;
    }
  };
  const perRoot = roots.map((configured) => {
    const root = attempt(() => openRoot(configured));
    if (root === null) return [];
    return root.entries.map((entry) => attempt(() => readSkillFolder(root.path, entry.name, kindOf(entry), limits)));
  });
  if (problems.length > 0) throw new SkillDiscoveryError(problems);

  const skills = new Map<string, SkillRead>();
  const overrides: SkillOverride[] = [];
  for (const reads of perRoot) {
    for (const read of reads) {
      if (read === null) continue;
      const previous = skills.get(read.skill.name);
      if (previous) overrides.push({ name: read.skill.name, replaced: previous.skill.directory, by: read.skill.directory });
      skills.set(read.skill.name, read);
    }
  }
  const sorted = new Map([...skills].sort(([a], [b]) => (a < b ? -1 : 1)));
  return { skills: sorted, overrides };
}

/**
 * Opens a configured root, lists its entries in name order through the opened folder, and reports its real path as
 * the kernel gives it for that folder.
 *
 * @throws SkillRootError when the root is missing, not a folder or unreadable.
 */
export function openRoot(configured: string): { path: string; entries: Dirent[] } {
  const absolute = resolve(configured);
  try {
    const folder = openFolderSync(absolute, absolute);
    try {
      const entries = readdirSync(folder.view, { withFileTypes: true });
      entries.sort((a, b) => (a.name < b.name ? -1 : 1)); // names in one folder are unique
      return { path: folder.real, entries };
    } finally {
      folder.close();
    }
  } catch (error) {
    throw new SkillRootError(absolute, { cause: error });
  }
}

function kindOf(entry: Dirent): FolderKind {
  return entry.isDirectory() ? 'directory' : entry.isSymbolicLink() ? 'link' : 'other';
}
