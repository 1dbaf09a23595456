import { homedir } from 'node:os';
import { dirname, relative, resolve, sep } from 'node:path';
import { isWithin } from '../fs/path-within';
import { resolveRealPath } from '../fs/resolve-real-path';
import { foldsCase } from './case-folding';
import { PermissionBehavior } from './permission-behavior';
import { PermissionContext } from './permission-context';
import { PermissionConfigError } from './permission-error';
import { absolutePath, compilePathPattern, escapePathPattern } from './path-pattern';
import { permissionRule, type PermissionRule, type RuleBehavior } from './permission-rule';

type Input = Record<string, unknown>;

/**
 * The two rule hooks of a tool, as a pair: pass it as an `@Action`'s `permissions` option or spread it into a tool.
 * `M` is what `matchRule` answers: a boolean, or a promise of one (the permission engine awaits it).
 */
export interface RuleHooks<M extends boolean | Promise<boolean> = boolean | Promise<boolean>> {
  /**
   * Whether a rule's content covers the call. `context` gives the folder relative paths resolve against; `behavior`
   * is the rule's (an allow rule may need to cover more than a deny rule, see {@link pathRule}).
   */
  matchRule(ruleContent: string, input: Input, context: PermissionContext, behavior: RuleBehavior): M;
  /** Rules that would allow this call; `context` as for `matchRule`. */
  generateSuggestions(input: Input, toolName: string, context?: PermissionContext): PermissionRule[];
}

/** Options of {@link pathMatchesRule}. */
export interface PathMatchOptions {
  /** The folder relative paths and relative patterns resolve against (default: the process's current directory). */
  readonly cwd?: string;
  /** Compare without regard to case (default: true on macOS and Windows, whose file systems ignore case by default). */
  readonly caseInsensitive?: boolean;
}

const PLATFORM_FOLDS_CASE = (): boolean => process.platform === 'darwin' || process.platform === 'win32';

/**
 * Whether a path rule pattern covers `path` as written, without looking at the file system (no links are
 * resolved; see {@link pathRule} for the check the permission engine makes). Both are resolved against
 * `options.cwd` when relative, and `path` is normalised first (`src/../.ssh/key` is `.ssh/key`).
 *
 * The pattern grammar: `*` (within one segment), `**` (any number of segments, as a whole segment), `?`, `[...]`
 * (`[!...]` or `[^...]` negates) are wildcards; `\` makes the next character literal; every other character,
 * `(`, `)`, `{`, `}`, `!`, `+` and `@` included, is literal. `/...` is absolute, `~/...` is in the user's home
 * directory, anything else is relative to the cwd, and a pattern with no `/` but a trailing one matches at any depth
 * (`*.pem`, `.env`), as in `.gitignore`. A pattern that covers a folder covers everything inside it.
 *
 * @throws PermissionConfigError `INVALID_PERMISSION_RULE` for a pattern that has no meaning: `~user/...`, a `..`
 *   after a wildcard, a reversed range such as `[z-a]`.
 */
export function pathMatchesRule(pattern: string, path: string, options: PathMatchOptions = {}): boolean {
  const cwd = resolve(options.cwd ?? process.cwd());
  return compilePathPattern(pattern, { cwd }).covers(absolutePath(path, cwd), options.caseInsensitive ?? PLATFORM_FOLDS_CASE());
}

const DEFAULT_CONTEXT = (): PermissionContext => new PermissionContext();

function assertBehavior(behavior: unknown): asserts behavior is RuleBehavior {
  if (behavior !== PermissionBehavior.ALLOW && behavior !== PermissionBehavior.DENY && behavior !== PermissionBehavior.ASK) {
    throw new PermissionConfigError('INVALID_RULE_BEHAVIOR', `matchRule needs the rule's behavior (allow, deny or ask), got ${String(behavior)}: allow and deny rules judge links differently.`);
  }
}

/**
 * Rule hooks for a tool whose calls are about one path argument (Read, Write, Edit): a rule's content is a path
 * pattern ({@link pathMatchesRule}) over `input[field]`, judged for the file the kernel would open.
 *
 * Both the call's path and the rule's pattern are resolved against `context.cwd` when relative. The path is then
 * seen two ways: as written (normalised) and as its real path (links resolved component by component, then `..`,
 * as the kernel does); the pattern covers what it names as written and what the links in its fixed leading part
 * lead to. An **allow** rule must cover both the written and the real path, so `Write(<proj>/**)` never allows
 * `<proj>/link/key` where `link` leads out of `<proj>`; a **deny** or **ask** rule matches when it covers either.
 * Deny and ask rules also ignore case when the path lies on a file system that ignores case (or when
 * `context.caseInsensitive` is set; allow rules only then). A path `~/...` is judged both as the kernel reads it (a
 * folder named `~`) and as a tool that expands the tilde reads it (the home directory).
 *
 * A path or pattern whose links cannot be resolved (a loop, a file used as a folder, an unreadable folder) makes
 * the matcher throw, which the engine treats as "matches" for deny and ask rules and "does not match" for allow
 * rules: fail closed.
 *
 * The suggestion is `<parent folder>/**` (relative to the cwd when inside it), or the file itself when it sits in
 * the cwd or is a link leading out of its folder, with every glob character escaped, so that it allows the call it
 * was made for.
 */
export function pathRule(field: string): RuleHooks<boolean> {
  return {
    matchRule: (content, input, context = DEFAULT_CONTEXT(), behavior) => {
      assertBehavior(behavior);
      const raw = input[field];
      if (typeof raw !== 'string') return false;
      const cwd = context.cwd;
      const nocase = context.caseInsensitive;
      const pattern = compilePathPattern(content, { cwd, resolveLinks: true });
      // The kernel reads `~/x` as a folder named `~`; a tool that expands the tilde reads the home directory: judge both.
      const readings = isTilde(raw) ? [raw, `${homedir()}${raw.slice(1)}`] : [raw];
      const written = readings.map((path) => absolutePath(path, cwd));
      if (behavior !== PermissionBehavior.ALLOW && written.some((path) => pattern.covers(path, nocase))) return true;
      const forms = [...written, ...readings.map((path) => absolutePath(resolveRealPath(path, cwd), cwd))];
      if (behavior === PermissionBehavior.ALLOW) return forms.every((path) => pattern.covers(path, nocase));
      if (forms.some((path) => pattern.covers(path, nocase))) return true;
      if (nocase || !forms.some((path) => foldsCase(path))) return false;
      return forms.some((path) => pattern.covers(path, true));
    },
    generateSuggestions: (input, toolName, context = DEFAULT_CONTEXT()) => {
      const raw = input[field];
      // A `~/...` path has two readings (see matchRule) that no one pattern covers: no suggestion.
      if (typeof raw !== 'string' || raw === '' || isTilde(raw)) return [];
      const cwd = context.cwd;
      const written = resolve(cwd, raw);
      const folder = dirname(written);
      let real: string;
      let realFolder: string;
      try {
        real = resolveRealPath(written);
        realFolder = resolveRealPath(folder);
      } catch {
        return []; // no allow rule can cover a path that cannot be resolved
      }
      const wholeFolder = folder !== cwd && isWithin(realFolder, real, { caseInsensitive: false });
      const target = wholeFolder ? folder : written;
      const inside = isWithin(cwd, target) && target !== cwd;
      const path = toSlashes(inside ? relative(cwd, target) : target);
      // `./` keeps a one-segment path anchored in the cwd (a pattern without '/' would match at any depth).
      const escaped = escapePathPattern(path);
      const content = wholeFolder ? `${escaped}/**` : inside && !path.includes('/') ? `./${escaped}` : escaped;
      return [permissionRule(toolName, PermissionBehavior.ALLOW, content)];
    },
  };
}

function isTilde(path: string): boolean {
  return path === '~' || path.startsWith('~/');
}

function toSlashes(path: string): string {
  return sep === '\\' ? path.replace(/\\/g, '/') : path;
}
