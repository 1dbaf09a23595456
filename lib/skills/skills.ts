import { resolve } from 'node:path';
import { type SkillChanges, diffSkills, freezeChanges, hasSkillChanges } from './changes';
import { type Discovery, discoverSkills } from './discovery';
import { SkillError, SkillNotFoundError, SkillOptionsError, SkillReadError } from './errors';
import { fingerprintSkills } from './fingerprint';
import { type SkillLimits, resolveSkillLimits } from './limits';
import { renderSkillsPrompt } from './prompt';
import { listSkillResources } from './resources';
import type { LoadedSkill, SkillLogger, SkillsOptions, SkillWatchOptions } from './options';
import { NotASkill, type Skill, type SkillRead, openSkillFolder, readSkillFile } from './skill-folder';
import { type SkillRootsWatch, watchSkillRoots } from './watcher';

/** What {@link Skills.fromLocalDir} hands the constructor. */
interface SkillsInit {
  readonly roots: readonly string[];
  readonly limits: SkillLimits;
  readonly logger: SkillLogger;
  readonly discovery: Discovery;
  readonly fingerprint: string;
}

/**
 * A registry of local Agent Skills (the SKILL.md convention, https://agentskills.io/specification).
 *
 * Each root holds one sub-folder per skill with a SKILL.md (YAML front matter, then Markdown instructions). The
 * registry keeps the manifests (for {@link renderPrompt}) and re-reads a skill in full on {@link load}. Refreshes are
 * all-or-nothing and serialised: a failed discovery throws and leaves the active skills as they were.
 */
export class Skills {
  private active: ReadonlyMap<string, SkillRead>;
  private currentRevision = 0;
  private fingerprint: string;
  private failure: { fingerprint: string; error: unknown } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private watcher: SkillRootsWatch | undefined;
  private dirty = true;
  private timer: NodeJS.Timeout | undefined;
  private seenOverrides = new Set<string>();
  private lastLogged: unknown;
  private starting: Promise<void> | undefined;
  /** Bumped by close(), so a watch that finishes starting after it knows it was closed. */
  private epoch = 0;

  private readonly roots: readonly string[];
  private readonly limits: SkillLimits;
  private readonly logger: SkillLogger;

  /**
   * Internal: build registries with {@link Skills.fromLocalDir}. (The constructor is public only so that the class
   * itself can be a `ToolContext` token: `context.resolve(Skills)`.)
   */
  constructor(init: SkillsInit) {
    this.roots = init.roots;
    this.limits = init.limits;
    this.logger = init.logger;
    this.active = init.discovery.skills;
    this.fingerprint = init.fingerprint;
    this.warnOverrides(init.discovery);
  }

  /**
   * Discovers the skills of one or more local folders. A skill in a later folder overrides one of the same name from
   * an earlier folder, with a warning on the logger. Pass options as the last argument.
   *
   * Relative folders are resolved against the current directory now, once.
   *
   * @example
   * ```ts
   * const skills = await Skills.fromLocalDir('./skills', '/opt/agent/skills', { logger });
   * ```
   * @throws SkillOptionsError (code `SKILL_INVALID_OPTIONS`) when no folder is given or a limit is bad;
   *   SkillDiscoveryError (code `SKILL_DISCOVERY`) listing each missing root, invalid SKILL.md, link out of its root,
   *   unreadable SKILL.md and swap caught while reading.
   */
  static async fromLocalDir(...args: [...dirs: string[], options: SkillsOptions] | string[]): Promise<Skills> {
    const all: readonly (string | SkillsOptions)[] = args;
    const last = all[all.length - 1];
    const options: SkillsOptions = typeof last === 'object' ? last : {};
    const roots = Object.freeze(all.filter((a): a is string => typeof a === 'string').map((dir) => resolve(dir)));
    if (roots.length === 0) throw new SkillOptionsError('Skills.fromLocalDir() needs at least one folder: pass the skills roots first.');
    const limits = resolveSkillLimits(options.limits);
    const fingerprint = fingerprintSkills(roots);
    const discovery = discoverSkills(roots, limits);
    return new Skills({ roots, limits, logger: options.logger ?? console, discovery, fingerprint });
  }

  /** The registry revision: 0 after discovery, one more after each refresh that changed something. */
  get revision(): number {
    return this.currentRevision;
  }

  /** True while {@link watch} is active. */
  get watching(): boolean {
    return this.watcher !== undefined;
  }

  /** How many skills are active. */
  get size(): number {
    return this.active.size;
  }

  /** The active skills (manifest and place, not the instructions), sorted by name. */
  list(): readonly Skill[] {
    return [...this.active.values()].map((read) => read.skill);
  }

  /** The active skill called `name`, or `undefined`. */
  get(name: string): Skill | undefined {
    return this.active.get(name)?.skill;
  }

  /**
   * The compact listing for a system prompt: `<available_skills>` with each skill's escaped name and description, or
   * `''` when there are none.
   */
  renderPrompt(): string {
    return renderSkillsPrompt(this.list());
  }

  /**
   * Loads one active skill in full, re-reading its SKILL.md from disk (so edited instructions show without a refresh)
   * and listing its resources.
   *
   * The skill folder is opened once and judged by where the opened folder really is; SKILL.md is read and the
   * resources are listed through that open folder, so a folder or file swapped for a link (to the outside, to
   * `/dev/zero`, to a FIFO) while `load()` runs can make it fail, never read or list anything outside the root.
   *
   * @throws SkillNotFoundError when no active skill has that name, or its folder or SKILL.md is gone (or is no longer a
   *   folder and a regular file); InvalidSkillError or SkillOutsideRootError when the file on disk now breaks a rule
   *   (the edit is not activated); SkillChangedError when the folder or file was swapped while being read;
   *   SkillReadError when the system refuses to read it. No other error.
   */
  async load(name: string): Promise<LoadedSkill> {
    const entry = this.active.get(name);
    if (entry === undefined) throw new SkillNotFoundError(name, [...this.active.keys()]);
    const { root, directory } = entry.skill;
    const gone = (missing: NotASkill) =>
      new SkillNotFoundError(name, [...this.active.keys()], `${missing.reason} (skill folder '${directory}')`);
    try {
      const folder = openSkillFolder(root, name);
      if (folder instanceof NotASkill) throw gone(folder);
      try {
        const read = readSkillFile(root, name, folder, this.limits);
        if (read instanceof NotASkill) throw gone(read);
        const resources = await listSkillResources(folder, root);
        return Object.freeze({ ...read.skill, instructions: read.instructions, resources });
      } finally {
        folder.close();
      }
    } catch (error) {
      throw error instanceof SkillError ? error : new SkillReadError(directory, error);
    }
  }

  /**
   * Rediscovers every root and activates the result when discovery succeeds.
   *
   * @returns the revision and the sorted names added, updated and removed (all empty, same revision, when nothing
   *   changed).
   * @throws SkillDiscoveryError when any skill or root is refused; the active skills and revision stay as they were.
   */
  refresh(): Promise<SkillChanges> {
    return this.serialize(async () => this.rediscover(fingerprintSkills(this.roots)));
  }

  /**
   * Refreshes only when the fingerprint of the SKILL.md files (names, mtimes, sizes) differs from the last one seen.
   * While {@link watch} is active and no file event came since the last check, it answers without touching the disk;
   * pass `{ checkDisk: true }` to compare the fingerprint anyway (file events arrive asynchronously, so right after a
   * write the watcher may not have reported it yet).
   *
   * @throws SkillDiscoveryError as {@link refresh}; the same error again, without re-reading, while the broken files
   *   are unchanged.
   */
  refreshIfChanged(options: { readonly checkDisk?: boolean } = {}): Promise<SkillChanges> {
    return this.serialize(async () => {
      if (this.watcher === undefined || this.dirty || options.checkDisk === true) {
        this.dirty = false;
        const fingerprint = fingerprintSkills(this.roots);
        if (fingerprint !== this.fingerprint && fingerprint !== this.failure?.fingerprint) {
          return this.rediscover(fingerprint);
        }
        if (fingerprint === this.fingerprint) this.failure = undefined;
      }
      if (this.failure !== undefined) throw this.failure.error;
      return freezeChanges(this.currentRevision);
    });
  }

  /**
   * Watches the roots with chokidar (an optional peer dependency, loaded now): each SKILL.md event marks the registry
   * dirty and schedules a debounced {@link refreshIfChanged}, whose errors go to the logger (once per broken state).
   * Resolves when the watcher is ready; calling it again while watching (or starting to) does nothing more.
   *
   * @throws SkillWatchError (code `SKILL_WATCH_UNAVAILABLE`) when chokidar is not installed.
   */
  watch(options: SkillWatchOptions = {}): Promise<void> {
    if (this.watcher !== undefined) return Promise.resolve();
    if (this.starting === undefined) {
      const starting: Promise<void> = this.startWatching(options.debounceMs ?? 100, this.epoch).finally(() => {
        if (this.starting === starting) this.starting = undefined;
      });
      this.starting = starting;
    }
    return this.starting;
  }

  /**
   * Stops {@link watch} (and any pending debounced refresh); refreshIfChanged() reads the disk again. Idempotent.
   * Applies to the watch running or starting when it is called: a `watch()` called after it starts a new one.
   */
  async close(): Promise<void> {
    this.epoch++;
    clearTimeout(this.timer);
    const starting = this.starting;
    const watcher = this.watcher;
    this.starting = undefined;
    this.watcher = undefined;
    await starting?.catch(() => undefined);
    await watcher?.close();
  }

  private async startWatching(debounceMs: number, epoch: number): Promise<void> {
    const onChange = (): void => {
      this.dirty = true;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.refreshIfChanged().catch((error: unknown) => {
          if (error === this.lastLogged) return;
          this.lastLogged = error;
          this.logger.warn(`Skills refresh failed: ${String(error)}`);
        });
      }, debounceMs);
      this.timer.unref();
    };
    const onError = (error: unknown): void => this.logger.warn(`Skills watcher error: ${String(error)}`);
    const watcher = await watchSkillRoots(this.roots, onChange, onError);
    if (epoch !== this.epoch) {
      // close() was called while chokidar was starting: this watch is already over.
      await watcher.close();
      return;
    }
    this.watcher = watcher;
    this.dirty = true;
  }

  private async rediscover(fingerprint: string): Promise<SkillChanges> {
    let discovery: Discovery;
    try {
      discovery = discoverSkills(this.roots, this.limits);
    } catch (error) {
      this.failure = { fingerprint, error };
      throw error;
    }
    this.failure = undefined;
    this.fingerprint = fingerprint;
    const changes = diffSkills(this.active, discovery.skills, this.currentRevision + 1);
    this.active = discovery.skills;
    this.warnOverrides(discovery);
    if (!hasSkillChanges(changes)) return freezeChanges(this.currentRevision);
    this.currentRevision = changes.revision;
    return changes;
  }

  private warnOverrides(discovery: Discovery): void {
    const seen = new Set<string>();
    for (const { name, replaced, by } of discovery.overrides) {
      const key = `${name}\0${replaced}\0${by}`;
      seen.add(key);
      if (!this.seenOverrides.has(key)) {
        this.logger.warn(`Skill '${name}' in '${by}' overrides the one in '${replaced}' (a later skills folder wins).`);
      }
    }
    this.seenOverrides = seen;
  }

  private serialize<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
