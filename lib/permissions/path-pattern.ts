import { homedir } from 'node:os';
import { lstatSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { bracketClass } from '../fs/bracket-class';
import { isWithin } from '../fs/path-within';
import { PathResolutionError, resolveRealPath } from '../fs/resolve-real-path';
import { ANY_ONE, classAtom, literalAtom, matchSegments, STAR, type NameAtom, type SegmentAtom } from './glob-match';
import { PermissionConfigError } from './permission-error';

/**
 * The characters that have a meaning in a path rule pattern: `*`, `?`, `[`, `]` and the escape `\`. Every other
 * character, `(`, `)`, `{`, `}`, `!`, `+`, `@` and `~` past the first position included, stands for itself.
 */
const SPECIAL = /[*?[\]\\]/g;
const BLANK = /\s/;

/**
 * A literal path as a rule pattern that covers exactly that path: every glob character is escaped, and so are a
 * leading `~` (which would otherwise mean the home directory) and leading or trailing blanks (refused unescaped, as
 * they are usually a typo in a settings file).
 *
 * @example `escapePathPattern('src/app/[[...slug]]/page.tsx')` is `src/app/\[\[...slug\]\]/page.tsx`.
 */
export function escapePathPattern(literal: string): string {
  const escaped = literal.replace(SPECIAL, '\\$&');
  // Leading and trailing blanks, found by a scan: `/\s+$/` is quadratic on a long inner run of blanks.
  let start = 0;
  while (start < escaped.length && BLANK.test(escaped[start]!)) start++;
  let end = escaped.length;
  while (end > start && BLANK.test(escaped[end - 1]!)) end--;
  const blanks = (text: string) => text.replace(/\s/g, '\\$&');
  const result = blanks(escaped.slice(0, start)) + escaped.slice(start, end) + blanks(escaped.slice(end));
  return result.startsWith('~') ? `\\${result}` : result;
}

/** Where a pattern is anchored. */
type Anchor = 'root' | 'home' | 'cwd';

type Token = { readonly literal: string } | { readonly glob: string };

/** A pattern split into whole path segments; `literalCount` leading segments have no glob syntax. */
interface ParsedPattern {
  readonly anchor: Anchor;
  readonly segments: readonly (readonly Token[])[];
  readonly literalCount: number;
}

/** What a compiled pattern tests: one or two absolute forms (as written, and with the links of its fixed part resolved). */
export interface CompiledPathPattern {
  /** Whether the absolute, normalised `path` (a `/`-separated string) is covered by one of the forms. */
  covers(path: string, caseInsensitive: boolean): boolean;
  /**
   * Whether `path` (a real path: no links in its existing part) reaches the pattern's fixed part under another
   * name: a folder on its way, or the file itself, is the same file (device and inode) as the folder or file the
   * fixed part leads to (a bind mount, a hard link), and the rest of `path` matches the rest of the pattern.
   */
  coversSameFile(path: string, caseInsensitive: boolean): boolean;
}

const GLOBSTAR = '\u0000globstar';
const ONE_STAR = '[^/]*';
const ONE_CHAR = '[^/]';

function invalid(pattern: string, why: string): PermissionConfigError {
  return new PermissionConfigError('INVALID_PERMISSION_RULE', `Path rule pattern ${JSON.stringify(pattern)} is not valid: ${why}.`);
}

/** Whether the pattern ends with a blank that no backslash escapes (counted by a scan, in linear time). */
function endsWithBareBlank(pattern: string): boolean {
  if (!BLANK.test(pattern.slice(-1))) return false;
  let backslashes = 0;
  while (pattern[pattern.length - 2 - backslashes] === '\\') backslashes++;
  return backslashes % 2 === 0;
}

/** Splits a pattern into segments of tokens, applying escapes; see docs/permissions.md for the grammar. */
function parse(pattern: string): ParsedPattern {
  if (/^\s/.test(pattern) || endsWithBareBlank(pattern)) {
    throw invalid(pattern, "it starts or ends with a blank, which is usually a typo; escape it ('\\ ') if the name really has one");
  }
  let anchor: Anchor = 'cwd';
  let text = pattern;
  if (text.startsWith('/')) {
    anchor = 'root';
  } else if (text === '~' || text.startsWith('~/')) {
    anchor = 'home';
    text = text.slice(1);
  } else if (text.startsWith('~')) {
    throw invalid(pattern, "only '~/' (your home directory) may start a pattern; '~user' and other '~' forms are not supported. Write the absolute path instead, or escape the tilde ('\\~') for a file whose name starts with '~'");
  }
  const segments: Token[][] = [];
  let current: Token[] = [];
  let innerSlash = false;
  let literal = '';
  const flush = () => {
    if (literal !== '') current.push({ literal });
    literal = '';
  };
  const endSegment = () => {
    flush();
    if (current.length > 0) segments.push(current);
    current = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && text[i + 1] !== '/') {
      // An escaped character stands for itself; a trailing backslash is a literal backslash.
      literal += i + 1 < text.length ? text[++i]! : '\\';
    } else if (ch === '/' || ch === '\\') {
      // A name never contains '/', so an escaped one is a separator too.
      if (ch === '\\') i++;
      endSegment();
      if (/[^/]/.test(text.slice(i + 1))) innerSlash = true;
    } else if (ch === '*') {
      flush();
      let j = i;
      while (text[j + 1] === '*') j++;
      current.push({ glob: j > i ? GLOBSTAR : ONE_STAR });
      i = j;
    } else if (ch === '?') {
      flush();
      current.push({ glob: ONE_CHAR });
    } else if (ch === '[') {
      const cls = bracketClass(text, i, 'range');
      if (cls === undefined) {
        literal += ch;
      } else {
        flush();
        current.push({ glob: cls.source });
        i = cls.end;
      }
    } else {
      literal += ch;
    }
  }
  endSegment();
  const normal: Token[][] = [];
  let literalCount = 0;
  let globSeen = false;
  for (const segment of segments) {
    const only = segment.length === 1 ? segment[0]! : undefined;
    if (only !== undefined && 'literal' in only && only.literal === '.') continue;
    if (only !== undefined && 'literal' in only && only.literal === '..' && globSeen) {
      throw invalid(pattern, "'..' may only appear before the first wildcard");
    }
    // `**` is a globstar only as a whole segment; inside a segment, stars are one `*`.
    const tokens = segment.map((t) => ('glob' in t && t.glob === GLOBSTAR && segment.length > 1 ? { glob: ONE_STAR } : t));
    if (!globSeen && tokens.every((t) => 'literal' in t)) literalCount++;
    else globSeen = true;
    normal.push(tokens);
  }
  // As in .gitignore, a relative pattern without a '/' (but a trailing one) matches at any depth.
  if (anchor === 'cwd' && !innerSlash && normal.length === 1) {
    return { anchor, segments: [[{ glob: GLOBSTAR }], ...normal], literalCount: 0 };
  }
  return { anchor, segments: normal, literalCount };
}

function isGlobstar(segment: readonly Token[]): boolean {
  const only = segment[0]!;
  return segment.length === 1 && 'glob' in only && only.glob === GLOBSTAR;
}


function slashes(path: string): string {
  return sep === '\\' ? path.replace(/\\/g, '/') : path;
}

/**
 * The pattern's segments as matcher atoms. No regular expression spans more than one character: a regular
 * expression over the whole path backtracks exponentially on crafted paths (see glob-match.ts).
 */
function atomsOf(segments: readonly (readonly Token[])[], pattern: string): SegmentAtom[] {
  return segments.map((segment): SegmentAtom => {
    if (isGlobstar(segment)) return STAR;
    const atoms: NameAtom[] = [];
    for (const token of segment) {
      if ('literal' in token) for (const ch of token.literal) atoms.push(literalAtom(ch));
      else if (token.glob === ONE_STAR) atoms.push(STAR);
      else if (token.glob === ONE_CHAR) atoms.push(ANY_ONE);
      else atoms.push(classOf(token.glob, pattern));
    }
    return { star: false, atoms };
  });
}

function classOf(source: string, pattern: string): NameAtom {
  try {
    return classAtom(source);
  } catch (error) {
    throw invalid(pattern, `it does not compile (${(error as Error).message})`);
  }
}

/** The names of an absolute `/`-separated path. */
function namesOf(path: string): string[] {
  return path.split('/').filter((name) => name !== '');
}

/** Options of {@link compilePathPattern}. */
export interface PathPatternOptions {
  /** The folder relative patterns resolve against (absolute). */
  readonly cwd: string;
  /**
   * Also build the form whose fixed leading part (the segments before the first wildcard) has its links resolved
   * the way the kernel would, when they can be followed (default false: the pattern as written only).
   */
  readonly resolveLinks?: boolean;
  /**
   * With `resolveLinks`: folders (real paths) whose links are not followed. When the fixed part crosses a link located
   * in one of them, the pattern covers what it names as written only.
   */
  readonly linksNotFollowedWithin?: readonly string[];
}

/**
 * Compiles a path rule pattern into absolute forms.
 *
 * Grammar: `*` matches any run of characters within one path segment, `**` as a whole segment matches any number of
 * segments (none included), `?` one character, `[abc]`, `[a-z]`, `[!abc]` or `[^abc]` one character of (or not of) a
 * set; `\` makes the next character literal; every other character is literal. Dot files are matched like other
 * files. Anchoring: `/...` is absolute, `~/...` is below the user's home directory, and any other pattern is relative
 * to `options.cwd`; as in `.gitignore`, a relative pattern with no `/` but a trailing one (`*.pem`, `.env`,
 * `secrets/`) matches at any depth below it. `.` segments are ignored, `..` segments
 * (allowed only before the first wildcard) climb; a trailing `/` and doubled `/` are ignored. A pattern covers the
 * paths it matches and everything inside them.
 *
 * @throws PermissionConfigError `INVALID_PERMISSION_RULE` for `~user/...` (or any `~` form but `~` and `~/`), a `..`
 *   after a wildcard, or a bracket expression that does not compile (a reversed range).
 */
export function compilePathPattern(pattern: string, options: PathPatternOptions): CompiledPathPattern {
  const parsed = parse(pattern);
  const fixed = parsed.segments.slice(0, parsed.literalCount).map((s) => (s[0] as { literal: string } | undefined)?.literal ?? '');
  const rest = parsed.segments.slice(parsed.literalCount);
  const start = parsed.anchor === 'root' ? '/' : parsed.anchor === 'home' ? homedir() : options.cwd;
  const bases = [slashes(resolve(start, ...fixed))];
  if (options.resolveLinks === true) {
    const real = realForm(fixed, start, options.linksNotFollowedWithin ?? []);
    if (real !== undefined && real !== bases[0]) bases.push(real);
  }
  // A pattern that covers a folder covers everything inside it: a trailing `**`.
  const tail = [...atomsOf(rest, pattern), STAR];
  const forms = bases.map((base) => [...atomsOf(namesOf(base).map((name) => [{ literal: name }]), pattern), ...tail]);
  const covers = (path: string, caseInsensitive: boolean): boolean =>
    forms.some((atoms) => matchSegments(atoms, namesOf(path), caseInsensitive));
  let identity: FileIdentity | null | undefined;
  return {
    covers,
    coversSameFile(path: string, caseInsensitive: boolean): boolean {
      identity ??= identityOf(bases[bases.length - 1]!) ?? null;
      if (identity === null) return false;
      const base = bases[bases.length - 1]!;
      for (let ancestor = path; ; ancestor = dirname(ancestor)) {
        const other = identityOf(ancestor);
        if (other !== undefined && other.dev === identity.dev && other.ino === identity.ino) {
          const below = ancestor === '/' ? path : path.slice(ancestor.length);
          if (covers(base === '/' ? below || '/' : `${base}${below}`, caseInsensitive)) return true;
        }
        if (dirname(ancestor) === ancestor) return false;
      }
    },
  };
}

interface FileIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
}

/** The device and inode of `path` (links not followed), or undefined when it cannot be examined. */
function identityOf(path: string): FileIdentity | undefined {
  try {
    const stat = lstatSync(path, { bigint: true });
    return { dev: stat.dev, ino: stat.ino };
  } catch {
    return undefined;
  }
}

/**
 * Where the links of a pattern's fixed part lead, or undefined when they cannot be followed (a loop, a file used as a
 * folder, a folder this process may not read): the pattern then covers what it names as written. A call's path
 * through the same spot cannot be resolved either, and the engine fails closed on it; so a natural rule such as
 * `Read(/root/**)`, seen by a process that cannot list `/root`, neither denies every call nor stops judging.
 */
function realForm(fixed: readonly string[], start: string, notFollowedWithin: readonly string[]): string | undefined {
  const refuse = (link: string) => {
    if (notFollowedWithin.some((folder) => isWithin(folder, link))) throw NOT_FOLLOWED;
  };
  try {
    return slashes(resolveRealPath(fixed.join(sep) || '.', resolve(start), refuse));
  } catch (error) {
    if (error instanceof PathResolutionError || error === NOT_FOLLOWED) return undefined;
    throw error;
  }
}

const NOT_FOLLOWED = Symbol('link not followed');

/** A path as {@link CompiledPathPattern.covers} expects it: absolute, normalised, `/`-separated. */
export function absolutePath(path: string, cwd: string): string {
  return slashes(resolve(cwd, path));
}

/**
 * The folder (absolute, `/`-separated) below which everything a path rule pattern can cover lies: its fixed leading
 * part resolved against `cwd` (`secret/**` gives `<cwd>/secret`, `*.pem` gives `<cwd>`, `/etc/*` gives `/etc`).
 * Links are not resolved. A multi-file tool (Grep, Glob) uses it to tell whether a rule may reach a file inside the
 * folder it searches.
 *
 * @throws PermissionConfigError `INVALID_PERMISSION_RULE`, as {@link compilePathPattern}.
 */
export function patternBase(pattern: string, cwd: string): string {
  const parsed = parse(pattern);
  const fixed = parsed.segments.slice(0, parsed.literalCount).map((s) => (s[0] as { literal: string } | undefined)?.literal ?? '');
  const start = parsed.anchor === 'root' ? '/' : parsed.anchor === 'home' ? homedir() : cwd;
  return slashes(resolve(start, ...fixed));
}
