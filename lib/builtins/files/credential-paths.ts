import { posix } from 'node:path';
import { resolveRealPath } from '../../fs/resolve-real-path';

/**
 * Files that hold credentials, named as path suffixes (an entry with a `/` matches the path's last segments):
 * the `.env` family (`.env`, `.env.local`, `.env.production`, ...), `.netrc`, `.npmrc`, `.pypirc`, and the
 * credential files of the AWS, Kubernetes and Docker command-line tools.
 */
export const CREDENTIAL_FILES: readonly string[] = Object.freeze([
  '.env', '.envrc', '.netrc', '.npmrc', '.pypirc', '.git-credentials',
  '.aws/credentials', '.aws/config', '.kube/config', '.docker/config.json', '.config/gh/hosts.yml',
]);

/**
 * System files that hold secrets, as absolute paths (a `*` in the last segment matches any characters there), each
 * with the reason. Compared as written, case included (Linux paths).
 */
export const SYSTEM_CREDENTIAL_PATHS: readonly { readonly path: string; readonly reason: string }[] = Object.freeze([
  { path: '/etc/shadow', reason: 'the hashed passwords of local users (shadow(5))' },
  { path: '/etc/shadow-', reason: "the shadow tools' backup of /etc/shadow" },
  { path: '/etc/gshadow', reason: 'group passwords and administrators (gshadow(5))' },
  { path: '/etc/gshadow-', reason: "the shadow tools' backup of /etc/gshadow" },
  { path: '/etc/security/opasswd', reason: "users' old password hashes kept by pam_pwhistory(8)" },
  { path: '/etc/sudoers', reason: 'who may run what as root, a map for an attacker (sudoers(5))' },
  { path: '/etc/sudoers.d/*', reason: 'drop-in sudoers(5) files' },
  { path: '/etc/ssh/ssh_host_*_key', reason: "the SSH server's private host keys (sshd(8), FILES)" },
  { path: '/etc/ssl/private/*', reason: "TLS private keys (Debian's ssl-cert folder)" },
  { path: '/etc/master.passwd', reason: "BSD's shadow password file (passwd(5) on BSD)" },
  { path: '/etc/spwd.db', reason: "BSD's hashed password database (pwd_mkdb(8))" },
]);

/**
 * Files of `/proc` that describe the machine and hold no process's secrets (proc(5)); every other path under `/proc`
 * (`/proc/self/environ`, `/proc/1/cmdline`, `/proc/self/mem`, the folder itself) may show a process's environment,
 * API keys included, and counts as a credential path.
 */
export const PROC_PUBLIC: ReadonlySet<string> = new Set(['/proc/cpuinfo', '/proc/meminfo', '/proc/version', '/proc/loadavg', '/proc/uptime', '/proc/stat', '/proc/filesystems', '/proc/swaps', '/proc/partitions', '/proc/diskstats']);

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
 * disk is the same key), so `my.env.example.txt` or `src/.sshd/x` are not credentials but `.env.local` is. An
 * absolute path is also one when it is a {@link SYSTEM_CREDENTIAL_PATHS} entry or lies in `/proc` outside
 * {@link PROC_PUBLIC}.
 */
export function isCredentialPath(path: string, options: CredentialPathOptions = {}): boolean {
  if (path.startsWith('/') && isSystemSecret(posix.resolve(path))) return true;
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

function isSystemSecret(path: string): boolean {
  if ((path === '/proc' || path.startsWith('/proc/')) && !PROC_PUBLIC.has(path)) return true;
  return SYSTEM_CREDENTIAL_PATHS.some((entry) => {
    const star = entry.path.indexOf('*');
    if (star < 0) return path === entry.path;
    const head = entry.path.slice(0, star);
    const tail = entry.path.slice(star + 1);
    return path.length >= head.length + tail.length && path.startsWith(head) && path.endsWith(tail) && !path.slice(head.length).includes('/');
  });
}

/**
 * Whether `path` (as written) names a folder that may hold credential paths without being one: its last segments
 * begin a longer entry (`.aws` for `.aws/credentials`, `~/.config` for `.config/gcloud`), or, absolute, it is a
 * folder above a {@link SYSTEM_CREDENTIAL_PATHS} entry or `/proc` (`/etc`, `/etc/ssh`, `/`). A recursive search
 * there reads the credentials.
 */
export function holdsCredentialPaths(path: string, options: CredentialPathOptions = {}): boolean {
  if (path.startsWith('/')) {
    const absolute = posix.resolve(path);
    const within = (entry: string) => absolute === '/' || entry.startsWith(`${absolute}/`);
    if (within('/proc/x') || SYSTEM_CREDENTIAL_PATHS.some((e) => within(e.path))) return true;
  }
  const segments = toSegments(path);
  if (segments.length === 0) return false;
  for (const entry of [...CREDENTIAL_FILES, ...CREDENTIAL_DIRECTORIES, ...(options.files ?? []), ...(options.directories ?? [])]) {
    const parts = toSegments(entry);
    for (let k = 1; k < parts.length; k++) if (endsWith(segments, parts.slice(0, k))) return true;
  }
  return false;
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
