import type { SkillRead } from './skill-folder';

/**
 * What one `refresh()` changed: the registry revision after it, and the sorted names of the skills added, updated (a
 * different SKILL.md text or folder) and removed. The revision starts at 0 and grows by one on each refresh that
 * changes something; a refresh that changes nothing keeps it. Frozen.
 */
export interface SkillChanges {
  readonly revision: number;
  readonly added: readonly string[];
  readonly updated: readonly string[];
  readonly removed: readonly string[];
}

/** True when `changes` lists at least one added, updated or removed skill. */
export function hasSkillChanges(changes: SkillChanges): boolean {
  return changes.added.length + changes.updated.length + changes.removed.length > 0;
}

/**
 * Compares two registries by name and hash and returns the frozen changes, with `revision` as given by the caller.
 *
 * @param before - the skills now active, by name.
 * @param after - the skills just discovered, by name.
 */
export function diffSkills(
  before: ReadonlyMap<string, SkillRead>,
  after: ReadonlyMap<string, SkillRead>,
  revision: number,
): SkillChanges {
  const added: string[] = [];
  const updated: string[] = [];
  const removed: string[] = [];
  for (const [name, read] of after) {
    const old = before.get(name);
    if (old === undefined) added.push(name);
    else if (old.hash !== read.hash) updated.push(name);
  }
  for (const name of before.keys()) if (!after.has(name)) removed.push(name);
  return freezeChanges(revision, added.sort(), updated.sort(), removed.sort());
}

/** Builds a frozen {@link SkillChanges}. */
export function freezeChanges(revision: number, added: string[] = [], updated: string[] = [], removed: string[] = []): SkillChanges {
  return Object.freeze({
    revision,
    added: Object.freeze(added),
    updated: Object.freeze(updated),
    removed: Object.freeze(removed),
  });
}
