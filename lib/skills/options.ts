import type { SkillLimits } from './limits';
import type { Skill } from './skill-folder';

/** Where a registry reports what it does not throw: overrides, and failed background refreshes. */
export interface SkillLogger {
  /** Reports an override or a failed background refresh. */
  warn(message: string): void;
}

/** Options of `Skills.fromLocalDir(...dirs, options)`. */
export interface SkillsOptions {
  /** Receives override warnings and the errors of watcher-driven refreshes; default `console`. */
  readonly logger?: SkillLogger;
  /** Size bounds for SKILL.md files; see {@link SkillLimits}. */
  readonly limits?: Partial<SkillLimits>;
}

/** Options of `skills.watch(options)`. */
export interface SkillWatchOptions {
  /** Quiet time after the last file event before the registry refreshes itself, in ms (default 100). */
  readonly debounceMs?: number;
}

/** A skill loaded in full by `skills.load(name)`: its manifest and place, instructions and resource list. Frozen. */
export interface LoadedSkill extends Skill {
  /** The Markdown body of SKILL.md, trimmed. */
  readonly instructions: string;
  /** Every other file of the skill folder, as sorted POSIX paths relative to `directory`. */
  readonly resources: readonly string[];
}
