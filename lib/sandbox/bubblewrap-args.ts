import { lstatSync, readlinkSync } from 'node:fs';
import type { PlannedMount } from './mount-plan';

/** System folders bound read-only when they exist on the host (symlinks such as Debian's `/bin -> usr/bin` kept). */
export const SYSTEM_PATHS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64'] as const;

/** The file descriptor on which bwrap reads the sandbox's variables (`--args`). */
export const ENVIRONMENT_FD = 3;
/** The file descriptor on which bwrap reports the host pid of the sandbox's pid 1 (`--info-fd`). */
export const INFO_FD = 4;

/** What one bwrap launch runs and sees. */
export interface BubblewrapLaunch {
  /** The command line, run as `shell -c command`. */
  command: string;
  /** Absolute path, inside the sandbox, of the shell. */
  shell: string;
  /** Share the host's network (ignored when `readOnly`). */
  network: boolean;
  /** The binds, in order. */
  mounts: readonly PlannedMount[];
  /** Working directory inside the sandbox, or undefined for bwrap's. */
  cwd: string | undefined;
  /**
   * Nothing writable and no network: every bind read-only, the root, `/dev` and `/tmp` remounted read-only once laid
   * (bwrap(1), `--remount-ro`), and the network namespace never shared back.
   */
  readOnly: boolean;
}

/**
 * Builds bwrap's arguments: die with parent, new session, unshare everything (a new pid namespace included; the
 * network shared back only when allowed and not read-only), every capability dropped, a fresh tmpfs root with a
 * read-only proc, dev and `/tmp`, the system folders read-only, then `mounts` in order, the working directory, an
 * empty environment filled from {@link ENVIRONMENT_FD}, the sandbox's pid reported on {@link INFO_FD}, and
 * `shell -c command`. Read-only launches bind everything read-only and remount the root, `/dev` and `/tmp` read-only.
 *
 * Environment values are never placed here: they travel through the file descriptor (see {@link environmentArgs}),
 * so no value shows in any command line.
 */
export function bubblewrapArgs(options: BubblewrapLaunch): string[] {
  // bwrap keeps every capability when the host process runs as root (bwrap(1), --cap-drop): without this drop a
  // command could remount any read-only bind read-write (`mount -o remount,bind,rw /usr`) and write to the host.
  const args = ['--die-with-parent', '--new-session', '--unshare-all', '--cap-drop', 'ALL', '--clearenv', '--args', String(ENVIRONMENT_FD), '--info-fd', String(INFO_FD)];
  if (options.network && !options.readOnly) args.push('--share-net');
  // /proc read-only: its sysctl files (/proc/sys) are global, and a sandboxed root passes their permission check
  // without any capability (kernel.core_pattern names a program the kernel runs as host root).
  args.push('--tmpfs', '/', '--proc', '/proc', '--remount-ro', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  for (const path of SYSTEM_PATHS) {
    const info = lstatOrUndefined(path);
    if (info?.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else if (info?.isDirectory()) args.push('--ro-bind', path, path);
  }
  for (const mount of options.mounts) args.push(mount.readOnly || options.readOnly ? '--ro-bind' : '--bind', mount.source, mount.target);
  // Last, once every mount point is made: a read-only mount refuses new files, and device nodes stay usable on it.
  if (options.readOnly) args.push('--remount-ro', '/dev', '--remount-ro', '/tmp', '--remount-ro', '/');
  if (options.cwd !== undefined) args.push('--chdir', options.cwd);
  args.push('--', options.shell, '-c', options.command);
  return args;
}

/**
 * The sandbox's variables as bwrap reads them from an `--args` file descriptor: NUL-separated `--setenv NAME VALUE`
 * triples. bwrap takes the two words after `--setenv` as the name and the value whatever they look like, so a name
 * or value shaped like one of its options (`--bind`) stays a name or value.
 */
export function environmentArgs(env: Readonly<Record<string, string>>): Buffer {
  return Buffer.from(Object.entries(env).map(([name, value]) => `--setenv\0${name}\0${value}\0`).join(''), 'utf8');
}

function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
