import { SkillOptionsError } from './errors';

/**
 * Size bounds applied to every SKILL.md, because skill files are untrusted input (an agent may have written them).
 * All three can be lowered or raised per registry through `Skills.fromLocalDir(dirs, { limits })`.
 */
export interface SkillLimits {
  /** Largest SKILL.md accepted, in bytes (default 256 KiB); a larger one is refused with rule `file-size`. */
  readonly maxFileBytes: number;
  /** Largest front-matter block accepted, in UTF-16 code units (default 16 KiB); rule `front-matter-size`. */
  readonly maxFrontMatterChars: number;
  /**
   * Bound on YAML alias expansion, passed to the `yaml` package as `maxAliasCount` (default 100): the number of alias
   * resolutions weighted by the aliases inside each anchor, so a "billion laughs" document stops early with rule
   * `yaml`. 0 refuses every alias.
   */
  readonly maxYamlAliases: number;
}

/** The default {@link SkillLimits}: 256 KiB per SKILL.md, 16 Ki characters of front matter, 100 YAML aliases. */
export const DEFAULT_SKILL_LIMITS: SkillLimits = Object.freeze({
  maxFileBytes: 256 * 1024,
  maxFrontMatterChars: 16 * 1024,
  maxYamlAliases: 100,
});

/**
 * Merges partial limits over {@link DEFAULT_SKILL_LIMITS}.
 *
 * @throws SkillOptionsError (`SKILL_INVALID_OPTIONS`) when a limit is not a positive integer (0 is accepted only for
 *   `maxYamlAliases`).
 */
export function resolveSkillLimits(limits: Partial<SkillLimits> = {}): SkillLimits {
  const merged: SkillLimits = { ...DEFAULT_SKILL_LIMITS, ...limits };
  for (const [key, value] of Object.entries(merged)) {
    const min = key === 'maxYamlAliases' ? 0 : 1;
    if (!Number.isInteger(value) || value < min) {
      throw new SkillOptionsError(`Skill limit '${key}' must be an integer >= ${min}, got ${String(value)}.`);
    }
  }
  return Object.freeze(merged);
}
