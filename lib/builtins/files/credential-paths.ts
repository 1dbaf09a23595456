import { resolveRealPath } from '../../fs/resolve-real-path';

/**
 * Files that hold credentials, named as path suffixes (an entry with a `/` matches the path's last segments):
 * the `.env` family (`.env`, `.env.local`, `.env.production`, ...), `.netrc`, `.npmrc`, `.pypirc`, and the
 * credential files of the AWS, Kubernetes and Docker command-line tools.
 */
export const CREDENTIAL_FILES: readonly string[] = Object.freeze([
  '.env', '.envrc', '.netrc', '.npmrc', '.pypirc', '.git-credentials',
  '.aws/credentials', '.aws/config', '.kube/config', '.docker/config.json',
]);

/** Folders whose whole content is credentials: SSH keys, the Google Cloud and Azure command-line tools' stores. */
export const CREDENTIAL_DIRECTORIES: readonly string[] = Object.freeze(['.ssh', '.config/gcloud', '.azure', '.gnupg']);

/** The user's additions to {@link CREDENTIAL_FILES} and {@link CREDENTIAL_DIRECTORIES} (same suffix syntax). */
export interface CredentialPathOptions {
  readonly files?: readonly string[];
  readonly directories?: readonly string[];
}

/**
 * Whether `path` (absolute or relative, as written: no file-system access) names a credential file or lies inside
 * a credential folder. Compared by whole segments and without regard to case (`.SSH/id_rsa` on a case-insensitive
 * disk is the same key), so `my.env.example.txt` or `src/.sshd/x` are not credentials but `.env.local` is.
 */
export function isCredentialPath(path: string, options: CredentialPathOptions = {}): boolean {
  const segments = toSegments(path);
  if (segments.length === 0) return false;
  const base = segments[segments.length - 1]!;
  if (base.startsWith('.env.')) return true;
  for (const entry of [...CREDENTIAL_FILES, ...(options.files ?? [])]) {
    if (endsWith(segments, toSegments(entry))) return true;
  }
  for (const entry of [...CREDENTIAL_DIRECTORIES, ...(options.directories ?? [])]) {
    if (contains(segments, toSegments(entry))) return true;
  }
  return false;
}

/**
 * {@link isCredentialPath} for the path as written and for its real path (links resolved component by component
 * from `base`, as the kernel does), so a link `notes.txt -> ~/.aws/credentials` is a credential path too. A path
 * whose links cannot be resolved (a loop, a folder that cannot be read) counts as a credential path: fail closed.
 * Host paths only: a workspace in a container needs its own resolution.
 */
export function isCredentialPathResolved(path: string, base: string, options: CredentialPathOptions = {}): boolean {
  if (isCredentialPath(path, options)) return true;
  try {
    return isCredentialPath(resolveRealPath(path, base), options);
  } catch {
    return true;
  }
}

function toSegments(path: string): string[] {
  return path.replace(/\\/g, '/').toLowerCase().split('/').filter((s) => s !== '' && s !== '.');
}

function endsWith(segments: readonly string[], suffix: readonly string[]): boolean {
  if (suffix.length === 0 || suffix.length > segments.length) return false;
  const offset = segments.length - suffix.length;
  return suffix.every((part, k) => segments[offset + k] === part);
}

function contains(segments: readonly string[], folder: readonly string[]): boolean {
  if (folder.length === 0) return false;
  for (let i = 0; i + folder.length <= segments.length; i++) {
    if (folder.every((part, k) => segments[i + k] === part)) return true;
  }
  return false;
}
