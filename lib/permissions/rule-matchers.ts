import { dirname, posix, relative, isAbsolute, resolve } from 'node:path';
import type picomatchType from 'picomatch';
import { PermissionBehavior } from './permission-behavior';
import { permissionRule, type PermissionRule } from './permission-rule';
import { realPathOf } from './working-directories';

type Input = Record<string, unknown>;

/** The two rule hooks of a tool, as a pair: pass it as an `@Action`'s `permissions` option or spread it into a tool. */
export interface RuleHooks {
  matchRule(ruleContent: string, input: Input): boolean;
  generateSuggestions(input: Input, toolName: string): PermissionRule[];
}

const matchers = new Map<string, (path: string) => boolean>();
let picomatch: typeof picomatchType | undefined;

/** picomatch, loaded on the first path rule so that importing the library never pays for it. */
function glob(): typeof picomatchType {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load keeps picomatch off the import path
  return (picomatch ??= require('picomatch') as typeof picomatchType);
}

/**
 * Whether a glob pattern covers `path` (picomatch, dot files included). Like a `.gitignore` line: a pattern starting
 * with `/` is anchored at the file system root; any other pattern matches the path or any tail of it that starts at a
 * segment, so `src/**` covers `/project/src/main.ts`. A pattern that covers a folder covers everything inside it
 * (`secrets`, `secrets/` and `/etc` cover `/p/secrets/key` and `/etc/passwd`), as a `.gitignore` line does: a deny
 * rule naming a folder would otherwise deny only the folder itself. On macOS and Windows the match ignores case, as
 * their file systems do. The path is normalised first
 * (`src/../.ssh/key` is `.ssh/key`), so `..` cannot walk out of what a rule names.
 */
export function pathMatchesRule(pattern: string, path: string): boolean {
  const key = pattern.length > 1 ? pattern.replace(/\/+$/, '') || '/' : pattern;
  // macOS and Windows file systems ignore case by default: there `SECRETS/key` is `secrets/key`, so a deny rule
  // compared case-sensitively could be dodged by changing case.
  const nocase = process.platform === 'darwin' || process.platform === 'win32';
  const cacheKey = nocase ? `i:${key}` : key;
  let match = matchers.get(cacheKey);
  if (match === undefined) matchers.set(cacheKey, (match = glob()(key, { dot: true, nocase })));
  const normal = posix.normalize(path.replace(/\\/g, '/'));
  const segments = normal.split('/').filter((s) => s !== '');
  if (key.startsWith('/')) {
    if (match(normal)) return true;
    for (let end = 1; end <= segments.length; end++) if (match(`/${segments.slice(0, end).join('/')}`)) return true;
    return false;
  }
  for (let start = 0; start < segments.length; start++) {
    for (let end = start + 1; end <= segments.length; end++) if (match(segments.slice(start, end).join('/'))) return true;
  }
  return false;
}

/**
 * Rule hooks for a tool whose calls are about one path argument (seed 004: Read, Write, Edit): a rule's content is
 * a glob over `input[field]` ({@link pathMatchesRule}), and over its real path too when it is absolute (symlinks
 * resolved); the suggestion is `<parent dir>/**` (relative to the
 * process's cwd when inside it), or the file itself when it sits in the cwd.
 */
export function pathRule(field: string): RuleHooks {
  return {
    matchRule: (content, input) => {
      const path = input[field];
      if (typeof path !== 'string') return false;
      if (pathMatchesRule(content, path)) return true;
      // An absolute path is also judged by where its links lead, so `/tmp/link` -> `/etc/passwd` meets `Read(/etc/**)`.
      // (A relative one is left as written: only the tool knows what it is relative to.)
      if (!isAbsolute(path)) return false;
      const real = realPathOf(path);
      return real !== resolve(path) && pathMatchesRule(content, real);
    },
    generateSuggestions: (input, toolName) => {
      const path = input[field];
      if (typeof path !== 'string' || path === '') return [];
      const rel = isAbsolute(path) ? relative(process.cwd(), path) : path;
      const inside = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
      const dir = dirname(inside ? rel : path).replace(/\\/g, '/');
      return [permissionRule(toolName, PermissionBehavior.ALLOW, dir === '.' ? rel.replace(/\\/g, '/') : `${dir}/**`)];
    },
  };
}

/**
 * Whether a command rule covers `command` (seed 004, Bash `match_rule`): `prefix:*` covers the prefix alone or
 * followed by a space (`git commit:*` covers `git commit -m x`, not `git commit-tree`); a pattern with another `*`
 * is a wildcard over the whole command; any other pattern must equal the command (the reference matched a
 * substring, so an allow rule `git status` covered `rm -rf x; git status`). Blank runs compare as one space.
 * Meant for one simple command: a shell tool splits compound commands and checks each part.
 */
export function commandMatchesRule(pattern: string, command: string): boolean {
  // Runs of blanks (tabs, newlines, repeated spaces) compare as one space on both sides: the shell splits words on
  // any of them, so `rm\t-rf /` must not slip past a deny rule `rm:*`.
  const text = squeeze(command);
  if (pattern.endsWith(':*')) {
    const prefix = squeeze(pattern.slice(0, -2));
    return text === prefix || text.startsWith(`${prefix} `);
  }
  if (!pattern.includes('*')) return text === squeeze(pattern);
  const source = squeeze(pattern).split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}$`, 's').test(text);
}

function squeeze(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/**
 * Rule hooks for a tool whose calls are one command in `input[field]`: {@link commandMatchesRule}; the suggestion
 * is the prefix rule of the first two words (`git commit -m "x"` suggests `git commit:*`), or the exact command
 * when it has one word.
 */
export function commandRule(field: string): RuleHooks {
  return {
    matchRule: (content, input) => typeof input[field] === 'string' && commandMatchesRule(content, input[field] as string),
    generateSuggestions: (input, toolName) => {
      const command = input[field];
      if (typeof command !== 'string' || command.trim() === '') return [];
      const words = command.trim().split(/\s+/);
      return [permissionRule(toolName, PermissionBehavior.ALLOW, words.length >= 2 ? `${words[0]} ${words[1]}:*` : words[0])];
    },
  };
}
