import { AgentToolkitError } from '../errors';

/**
 * Stable codes of the skills area, one per refusal kind (match on `error.code`, never on the message):
 *
 * - `SKILL_INVALID`: a SKILL.md breaks one of the rules of {@link SkillRule} ({@link InvalidSkillError}).
 * - `SKILL_OUTSIDE_ROOT`: a skill folder or its SKILL.md is a link that leads out of its root
 *   ({@link SkillOutsideRootError}).
 * - `SKILL_ROOT_MISSING`: a configured skills root does not exist or is not a folder ({@link SkillRootError}).
 * - `SKILL_NOT_FOUND`: `load(name)` or the viewer asked for a name the registry does not hold
 *   ({@link SkillNotFoundError}).
 * - `SKILL_DISCOVERY`: discovery refused one or more skills; the previous registry stays
 *   ({@link SkillDiscoveryError}, whose `problems` hold each refusal).
 * - `SKILL_WATCH_UNAVAILABLE`: `watch()` was called but the optional peer dependency chokidar is not installed
 *   ({@link SkillWatchError}).
 * - `SKILL_CHANGED`: a skill folder or SKILL.md was replaced while it was being read (for example swapped for a
 *   link); nothing from it was used. Retry ({@link SkillChangedError}).
 * - `SKILL_UNREADABLE`: the operating system refused to read a SKILL.md (for example `EACCES`); `errno` and `cause`
 *   say why ({@link SkillReadError}).
 * - `SKILL_INVALID_OPTIONS`: `Skills.fromLocalDir` got no folder or a bad limit ({@link SkillOptionsError}).
 */
export type SkillErrorCode =
  | 'SKILL_INVALID'
  | 'SKILL_OUTSIDE_ROOT'
  | 'SKILL_ROOT_MISSING'
  | 'SKILL_NOT_FOUND'
  | 'SKILL_DISCOVERY'
  | 'SKILL_WATCH_UNAVAILABLE'
  | 'SKILL_CHANGED'
  | 'SKILL_UNREADABLE'
  | 'SKILL_INVALID_OPTIONS';

/**
 * The rule a SKILL.md broke (the `rule` of an {@link InvalidSkillError}). The rules follow the Agent Skills SKILL.md
 * convention (https://agentskills.io/specification); docs/skills.md lists them with their limits.
 */
export type SkillRule =
  | 'file-size'
  | 'front-matter'
  | 'front-matter-size'
  | 'yaml'
  | 'mapping'
  | 'unknown-field'
  | 'name'
  | 'name-folder'
  | 'description'
  | 'license'
  | 'compatibility'
  | 'metadata'
  | 'allowed-tools'
  | 'body';

/** Base class of every error of the skills area; `code` is one of {@link SkillErrorCode}. */
export class SkillError extends AgentToolkitError<SkillErrorCode> {}

/** A SKILL.md that breaks a rule; `file` is its absolute path and `rule` names the rule (code `SKILL_INVALID`). */
export class InvalidSkillError extends SkillError {
  /**
   * @param file - absolute path of the SKILL.md.
   * @param rule - the rule it broke.
   * @param detail - why, and how to fix it (one or two sentences).
   * @param options - `cause`: the underlying parser error, when there is one.
   */
  constructor(
    readonly file: string,
    readonly rule: SkillRule,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super('SKILL_INVALID', `Invalid skill file '${file}' (rule: ${rule}): ${detail}`, options);
  }
}

/** A skill folder or SKILL.md whose real path lies outside its root (code `SKILL_OUTSIDE_ROOT`). */
export class SkillOutsideRootError extends SkillError {
  /**
   * @param path - the skill folder or SKILL.md as found under the root.
   * @param realPath - where it really leads.
   * @param root - the real path of the skills root.
   */
  constructor(
    readonly path: string,
    readonly realPath: string,
    readonly root: string,
  ) {
    super(
      'SKILL_OUTSIDE_ROOT',
      `Skill path '${path}' leads to '${realPath}', outside its skills root '${root}' (rule: a skill folder or SKILL.md ` +
        'may be a link only to somewhere inside its root). Move the skill into the root or remove the link.',
    );
  }
}

/** A configured skills root that does not exist or is not a folder (code `SKILL_ROOT_MISSING`). */
export class SkillRootError extends SkillError {
  /**
   * @param root - the root as configured (absolute).
   * @param options - `cause`: the fs error, when there is one.
   */
  constructor(
    readonly root: string,
    options?: { cause?: unknown },
  ) {
    super(
      'SKILL_ROOT_MISSING',
      `Skills root '${root}' does not exist or is not a folder. Create it, or remove it from Skills.fromLocalDir(...).`,
      options,
    );
  }
}

/**
 * `load(name)` (or the viewer) asked for a skill the registry does not hold, or whose folder or SKILL.md is gone or
 * no longer a readable folder and regular file (code `SKILL_NOT_FOUND`).
 */
export class SkillNotFoundError extends SkillError {
  /**
   * @param skillName - the name asked for.
   * @param available - the names the registry holds, sorted.
   * @param reason - why a listed name could not be loaded after all (its SKILL.md is gone), when that is the case.
   */
  constructor(
    readonly skillName: string,
    readonly available: readonly string[],
    reason?: string,
  ) {
    const list = available.length > 0 ? available.join(', ') : '(none)';
    const message = reason === undefined
      ? `Unknown skill '${skillName}'. Available: ${list}`
      : `Skill '${skillName}' cannot be loaded: ${reason}. Call refresh() to update the registry. Available: ${list}`;
    super('SKILL_NOT_FOUND', message);
  }
}

/**
 * Discovery refused one or more skills (code `SKILL_DISCOVERY`). Nothing found by that discovery is activated: the
 * registry keeps its previous skills. `problems` holds each refusal, in discovery order, each naming its file and rule.
 */
export class SkillDiscoveryError extends SkillError {
  /** @param problems - every refusal of this discovery (at least one). */
  constructor(readonly problems: readonly SkillError[]) {
    const lines = problems.map((p) => `  - ${p.message}`).join('\n');
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super('SKILL_DISCOVERY', `Skill discovery failed with ${count} (on a refresh, the previous skills stay active):\n${lines}`, {
      cause: problems[0],
    });
  }
}

/** `watch()` needs the optional peer dependency chokidar (code `SKILL_WATCH_UNAVAILABLE`). */
export class SkillWatchError extends SkillError {
  /** @param cause - the error raised while loading chokidar, or what loaded in its place. */
  constructor(cause: unknown) {
    super(
      'SKILL_WATCH_UNAVAILABLE',
      "Skills.watch() needs the optional peer dependency 'chokidar' (4, 5 or 6): install it with `npm install chokidar` " +
        '(chokidar 6 needs Node 22.22 or later; on Node 20 use chokidar@^5), or call refreshIfChanged() instead of watching.',
      { cause },
    );
  }
}

/**
 * A skill folder or SKILL.md changed while it was being read: a folder was replaced, or a name became a symbolic link
 * between two steps of one read (code `SKILL_CHANGED`). Nothing read from it was used; reading again usually works.
 */
export class SkillChangedError extends SkillError {
  /**
   * @param path - the skill folder or SKILL.md being read.
   * @param what - what changed, as a phrase.
   * @param options - `cause`: the underlying refusal.
   */
  constructor(
    readonly path: string,
    what: string,
    options?: { cause?: unknown },
  ) {
    super('SKILL_CHANGED', `Skill path '${path}' changed while it was being read (${what}); nothing from it was used. Retry.`, options);
  }
}

/** The operating system refused to read a skill file (code `SKILL_UNREADABLE`); `errno` is its code, `cause` the error. */
export class SkillReadError extends SkillError {
  /** The system error code, such as `EACCES` or `EIO`; undefined when the cause had none. */
  readonly errno: string | undefined;

  /**
   * @param path - the file or folder that could not be read.
   * @param cause - the underlying error.
   */
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    const errno = (cause as NodeJS.ErrnoException | null | undefined)?.code;
    const why = typeof errno === 'string' ? errno : cause instanceof Error ? cause.message : String(cause);
    super('SKILL_UNREADABLE', `Skill path '${path}' cannot be read (${why}). Check that it exists and that this process may read it.`, {
      cause,
    });
    this.errno = typeof errno === 'string' ? errno : undefined;
  }
}

/** `Skills.fromLocalDir` was called without a folder, or with a limit that is not a valid integer (code `SKILL_INVALID_OPTIONS`). */
export class SkillOptionsError extends SkillError {
  /** @param detail - what is wrong and how to fix it. */
  constructor(detail: string) {
    super('SKILL_INVALID_OPTIONS', detail);
  }
}
