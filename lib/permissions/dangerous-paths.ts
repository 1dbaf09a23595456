/**
 * Files an agent must not change without the user's say-so: shell start-up files, git and package-manager
 * configuration, credentials. Entries with a `/` name a path suffix.
 */
export const DANGEROUS_FILES: readonly string[] = Object.freeze([
  '.gitconfig', '.gitmodules', '.bashrc', '.bash_profile', '.zshrc', '.zprofile', '.profile',
  '.ssh/config', '.ssh/authorized_keys', '.netrc', '.npmrc', '.pypirc', '.env', '.envrc',
]);

/** Directories whose contents are configuration or keys: anything inside them is dangerous. */
export const DANGEROUS_DIRECTORIES: readonly string[] = Object.freeze(['.git', '.vscode', '.idea', '.ssh']);

/** Extra entries for {@link isDangerousPath}, added to the built-in lists. */
export interface DangerousPathOptions {
  readonly files?: readonly string[];
  readonly directories?: readonly string[];
}

/**
 * Whether `path` (absolute or relative, POSIX or Windows separators) names a dangerous file or lies inside a
 * dangerous directory.
 *
 * Compared by path segments, case-insensitively (case-insensitive file systems would otherwise be fooled): a file
 * entry matches when the path ends with its segments, so `.ssh/config` matches `/home/a/.ssh/config`; a directory
 * entry matches when any segment equals it. `.env` also covers its family (`.env.local`, `.env.production`, ...).
 */
export function isDangerousPath(path: string, options: DangerousPathOptions = {}): boolean {
  const segments = path.replace(/\\/g, '/').toLowerCase().split('/').filter((s) => s !== '' && s !== '.');
  if (segments.length === 0) return false;
  const base = segments[segments.length - 1]!;
  if (base.startsWith('.env.')) return true;
  for (const entry of options.files ? [...DANGEROUS_FILES, ...options.files] : DANGEROUS_FILES) {
    if (endsWithSegments(segments, splitEntry(entry))) return true;
  }
  for (const entry of options.directories ? [...DANGEROUS_DIRECTORIES, ...options.directories] : DANGEROUS_DIRECTORIES) {
    const dir = splitEntry(entry);
    for (let i = 0; i + dir.length <= segments.length; i++) {
      if (dir.every((part, k) => segments[i + k] === part)) return true;
    }
  }
  return false;
}

function splitEntry(entry: string): string[] {
  return entry.replace(/\\/g, '/').toLowerCase().split('/').filter((s) => s !== '');
}

function endsWithSegments(segments: readonly string[], suffix: readonly string[]): boolean {
  if (suffix.length === 0 || suffix.length > segments.length) return false;
  const offset = segments.length - suffix.length;
  return suffix.every((part, k) => segments[offset + k] === part);
}
