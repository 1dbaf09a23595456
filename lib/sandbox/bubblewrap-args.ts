import { lstatSync, readlinkSync } from 'node:fs';
import type { PlannedMount } from './mount-plan';

/** System folders bound read-only when they exist on the host (symlinks such as Debian's `/bin -> usr/bin` kept). */
export const SYSTEM_PATHS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64'] as const;

/**
 * Builds bwrap's arguments (the reference's Bubblewrap layout): die with parent, new session, unshare everything
 * (the network shared back only when allowed), a fresh tmpfs root with proc, dev and `/tmp`, the system folders
 * read-only, then `mounts` in order, the working directory, and `/bin/sh -c command`.
 *
 * Environment values are never placed here: the caller passes the environment to the bwrap process itself, so no
 * value shows in any command line.
 */
export function bubblewrapArgs(options: { command: string; network: boolean; mounts: readonly PlannedMount[]; cwd: string | undefined }): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-all'];
  if (options.network) args.push('--share-net');
  args.push('--tmpfs', '/', '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  for (const path of SYSTEM_PATHS) {
    const info = lstatOrUndefined(path);
    if (info?.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else if (info?.isDirectory()) args.push('--ro-bind', path, path);
  }
  for (const mount of options.mounts) args.push(mount.readOnly ? '--ro-bind' : '--bind', mount.source, mount.target);
  if (options.cwd !== undefined) args.push('--chdir', options.cwd);
  args.push('--', '/bin/sh', '-c', options.command);
  return args;
}

function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
