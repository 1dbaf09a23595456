import { CREDENTIAL_DIRECTORIES, CREDENTIAL_FILES, type CredentialPathOptions } from './credential-paths';

/** Version-control folders a Grep never searches, though it searches other hidden files. */
export const VCS_FOLDERS: readonly string[] = Object.freeze(['.git', '.svn', '.hg', '.bzr', '.jj', '.sl', '_darcs']);

/**
 * The ripgrep exclusion globs (case-insensitive, `--iglob=!…`) that keep every credential file and folder out of a
 * search run from the workspace root: each name anywhere (`.env`, `.env.*`, `.ssh`), each longer entry as a path
 * suffix (`**\/.aws/credentials`), and, when the root itself ends inside such an entry (a root named `.aws`), the
 * rest of the entry anchored at the root (`/credentials`).
 */
export function credentialExclusions(root: string, options: CredentialPathOptions = {}): string[] {
  const rootSegments = root.toLowerCase().split('/').filter((s) => s !== '');
  const globs = new Set<string>(['!.env.*']);
  for (const entry of [...CREDENTIAL_FILES, ...CREDENTIAL_DIRECTORIES, ...(options.files ?? []), ...(options.directories ?? [])]) {
    const segments = entry.replace(/\\/g, '/').split('/').filter((s) => s !== '' && s !== '.').map(escapeGlob);
    if (segments.length === 0) continue;
    globs.add(segments.length === 1 ? `!${segments[0]}` : `!**/${segments.join('/')}`);
    for (let k = 1; k < segments.length; k++) {
      const head = segments.slice(0, k).map((s) => s.toLowerCase());
      const tail = rootSegments.slice(rootSegments.length - k);
      if (tail.length === k && head.every((s, i) => unescape(s) === tail[i])) globs.add(`!/${segments.slice(k).join('/')}`);
    }
  }
  return [...globs].map((glob) => `--iglob=${glob}`);
}

function escapeGlob(segment: string): string {
  return segment.replace(/[*?[\]{}!\\]/g, '\\$&');
}

function unescape(segment: string): string {
  return segment.replace(/\\(.)/g, '$1');
}
