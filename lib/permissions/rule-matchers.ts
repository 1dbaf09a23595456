import { homedir, userInfo } from 'node:os';
import { dirname, relative, resolve, sep } from 'node:path';
import { isWithin } from '../fs/path-within';
import { PathResolutionError, resolveRealPath } from '../fs/resolve-real-path';
import { cutText } from '../text/cut-text';
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
 * `<proj>/link/key` where `link` leads out of `<proj>`, and it does not follow the links of its own fixed part that
 * lie inside the cwd or a working directory (the project's links must not widen it); a **deny** or **ask** rule
 * matches when it covers either.
 * Deny and ask rules also ignore case when the path lies on a file system that ignores case (or when
 * `context.caseInsensitive` is set; allow rules only then). A path `~/...` is judged both as the kernel reads it (a
 * folder named `~`) and as a tool that expands the tilde reads it (the home directory).
 *
 * A path or pattern whose links cannot be resolved (a loop, a file used as a folder, an unreadable folder) makes
 * the matcher throw, which the engine treats as "matches" for deny and ask rules and "does not match" for allow
 * rules: fail closed.
 *
 * The suggestion is `<parent folder>/**` (relative to the cwd when inside it), or the file itself when it is a link
 * leading out of its folder or when its folder is the cwd, a folder above the cwd or the home directory, or the
 * file-system root (a folder-wide rule there would allow far more than the call), with every glob character
 * escaped, so that it allows the call it was made for.
 */
export function pathRule(field: string): RuleHooks<boolean> {
  const hooks: RuleHooks<boolean> = {
    matchRule: (content, input, context = DEFAULT_CONTEXT(), behavior) => {
      assertBehavior(behavior);
      const raw = input[field];
      if (typeof raw !== 'string') return false;
      const cwd = context.cwd;
      const nocase = context.caseInsensitive;
      // An allow rule does not follow the links its own fixed part crosses inside the cwd or a working directory:
      // those are the project's (a cloned repository can ship `docs -> ~/.ssh`), and must not widen what it allows.
      const notFollowed = behavior === PermissionBehavior.ALLOW ? projectFolders(context) : [];
      const pattern = compilePathPattern(content, { cwd, resolveLinks: true, linksNotFollowedWithin: notFollowed });
      // The kernel reads `~/x` as a folder named `~`; a tool that expands the tilde reads the home directory: judge both.
      const readings = isTilde(raw) ? [raw, expandTilde(raw)] : [raw];
      const written = readings.map((path) => absolutePath(path, cwd));
      if (behavior !== PermissionBehavior.ALLOW && written.some((path) => pattern.covers(path, nocase))) return true;
      const forms = [...written, ...readings.map((path) => absolutePath(resolveRealPath(path, cwd), cwd))];
      if (behavior === PermissionBehavior.ALLOW) return forms.every((path) => pattern.covers(path, nocase));
      if (forms.some((path) => pattern.covers(path, nocase))) return true;
      const folds = nocase || forms.some((path) => foldsCase(path));
      if (folds && forms.some((path) => pattern.covers(path, true))) return true;
      // Other names of the same file that no link reveals: a bind mount of a folder, a hard link to a file.
      const real = forms.slice(written.length);
      if (real.some((path) => pattern.coversSameFile(path, folds))) return true;
      // Names that look the same: on file systems that normalise Unicode (macOS), `café` in NFC and NFD is one file.
      const nfc = (text: string) => text.normalize('NFC');
      if (nfc(content) === content && nfc(cwd) === cwd && forms.every((path) => nfc(path) === path)) return false;
      const composed = compilePathPattern(nfc(content), { cwd: nfc(cwd), resolveLinks: true });
      return forms.some((path) => composed.covers(nfc(path), folds));
    },
    generateSuggestions: (input, toolName, context = DEFAULT_CONTEXT()) => {
      const raw = input[field];
      const allows = (content: string) => {
        try {
          return hooks.matchRule(content, input, context, PermissionBehavior.ALLOW);
        } catch {
          return false;
        }
      };
      // A `~...` path has two readings (see matchRule) that no one pattern covers: no suggestion.
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
      const wholeFolder = !tooBroad(folder, cwd) && !tooBroad(realFolder, cwd) && isWithin(realFolder, real, { caseInsensitive: false });
      const target = wholeFolder ? folder : written;
      const inside = isWithin(cwd, target) && target !== cwd;
      const path = toSlashes(inside ? relative(cwd, target) : target);
      // `./` keeps a one-segment path anchored in the cwd (a pattern without '/' would match at any depth).
      const escaped = escapePathPattern(path);
      const content = wholeFolder ? `${escaped}/**` : inside && !path.includes('/') ? `./${escaped}` : escaped;
      // A suggestion must allow the call it was made for; a call through a link of the project that leads elsewhere
      // has two places that no one allow rule covers (see matchRule): no suggestion, the call is approved each time.
      if (!allows(content)) return [];
      return [permissionRule(toolName, PermissionBehavior.ALLOW, content)];
    },
  };
  return hooks;
}

/** The real paths of the cwd and the working directories (those that can be resolved). */
function projectFolders(context: PermissionContext): string[] {
  const folders: string[] = [];
  for (const folder of [context.cwd, ...context.workingDirectories]) {
    try {
      folders.push(resolveRealPath(folder, context.cwd));
    } catch {
      // a folder that cannot be resolved holds no link this process could follow
    }
  }
  return folders;
}

/**
 * Whether a folder-wide suggestion for `folder` would hand over far more than one call needs: the file-system root,
 * the home directory or a folder above it, and the cwd or a folder above it (the whole project and its neighbours).
 * The suggestion is then the file itself.
 */
function tooBroad(folder: string, cwd: string): boolean {
  if (dirname(folder) === folder) return true;
  const above = (path: string) => isWithin(folder, path, { caseInsensitive: false });
  const home = homedir();
  if (above(home) || above(cwd)) return true;
  try {
    return above(resolveRealPath(home)) || above(resolveRealPath(cwd));
  } catch {
    return true;
  }
}

/**
 * Whether a tool that expands the tilde (a shell, Python's `expanduser`) would read `path` from a home directory:
 * `~`, `~/...`, or `~<user>...` where `<user>` has the form of a user name (so `~$report.docx`, an office lock file,
 * is only a file name).
 */
function isTilde(path: string): boolean {
  return /^~(?:[A-Za-z_][A-Za-z0-9._-]*\$?)?(?:\/|$)/.test(path);
}

/**
 * The home-directory reading of `~`, `~/...` and `~<user>/...`. Only this process's own user is known: another
 * user's home cannot be looked up portably, so such a path cannot be judged (deny and ask rules apply, allow rules
 * do not), rather than being judged as the harmless folder named `~bob` that the kernel would open.
 */
function expandTilde(path: string): string {
  const cut = path.indexOf('/');
  const user = path.slice(1, cut < 0 ? undefined : cut);
  const rest = cut < 0 ? '' : path.slice(cut);
  if (user === '' || user === currentUser()) return `${homedir()}${rest}`;
  throw new PathResolutionError('PATH_UNRESOLVABLE', `Cannot resolve path '${cutText(path, 200)}': '~${cutText(user, 100)}' names another user's home directory, which this check cannot look up.`);
}

function currentUser(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined; // no entry for this user (some containers): only '~' and '~/' are known
  }
}

function toSlashes(path: string): string {
  return sep === '\\' ? path.replace(/\\/g, '/') : path;
}
