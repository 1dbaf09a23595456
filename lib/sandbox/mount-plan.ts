import { stat } from 'node:fs/promises';
import { posix, relative, sep } from 'node:path';
import { isWithin } from '../fs/path-within';
import { resolveRealPath } from '../fs/resolve-real-path';
import type { BindMount } from './bind-mount';
import { quoted, SandboxError } from './errors';
import type { SandboxPolicy } from './policy';

/** One bind of a host path into a sandbox. */
export interface PlannedMount {
  /** Absolute host path. */
  source: string;
  /** Absolute path inside the sandbox. */
  target: string;
  readOnly: boolean;
}

/**
 * Checks explicit bind mounts: targets must be unique among themselves and the backend's own `reserved` targets.
 *
 * @throws SandboxError `MOUNT_INVALID` naming the duplicated target.
 */
export function checkMountTargets(mounts: readonly PlannedMount[], reserved: readonly string[] = []): void {
  const seen = new Set(reserved);
  for (const mount of mounts) {
    if (seen.has(mount.target)) {
      throw new SandboxError('MOUNT_INVALID', `Mount target ${quoted(mount.target)} is used twice; give each BindMount its own target.`);
    }
    seen.add(mount.target);
  }
}

/**
 * Orders mounts so a parent is bound before what lies below it (the deepest mount wins, as in Docker and bwrap).
 */
export function byDepth(mounts: readonly PlannedMount[]): PlannedMount[] {
  const depth = (path: string): number => path.split('/').length;
  return [...mounts].sort((a, b) => depth(a.target) - depth(b.target));
}

/**
 * The policy's paths as identity mounts (host path = sandbox path): readable ones read-only, writable ones
 * read-write (a path in both is writable).
 */
export function policyMounts(policy: SandboxPolicy): PlannedMount[] {
  const writable = new Set(policy.writablePaths);
  const readOnly = policy.readablePaths.filter((p) => !writable.has(p)).map((p) => ({ source: p, target: p, readOnly: true }));
  return [...readOnly, ...policy.writablePaths.map((p) => ({ source: p, target: p, readOnly: false }))];
}

/** Explicit {@link BindMount}s as planned mounts. */
export function explicitMounts(mounts: readonly BindMount[]): PlannedMount[] {
  return mounts.map((m) => ({ source: m.source, target: m.target, readOnly: m.readOnly }));
}

/**
 * @throws SandboxError `MOUNT_INVALID` when a mount's host path does not exist.
 */
export async function checkSourcesExist(mounts: readonly PlannedMount[]): Promise<void> {
  for (const mount of mounts) {
    await stat(mount.source).catch((cause: unknown) => {
      throw new SandboxError('MOUNT_INVALID', `Cannot mount ${quoted(mount.source)} at ${quoted(mount.target)}: the host path does not exist. Create it or remove it from the policy/mounts.`, { cause });
    });
  }
}

/**
 * Pins every mount to the real path of its source and refuses a mount that comes from inside a writable one.
 *
 * A launcher resolves each source path on the host every time it binds it. Anything below a writable mount can be
 * changed by the sandboxed command, so a source below one (by its spelling or by its real path) could be replaced
 * with a link, or have a folder on its way renamed and replaced by one, and the next launch would bind whatever the
 * link points to (`/proc`, `~/.ssh`) into the sandbox. Refusing those mounts, and binding the others by a real path
 * that has no component inside a writable mount, leaves the sandbox no way to steer a bind.
 *
 * A writable mount below a writable one that maps it to the same place is redundant and is dropped.
 *
 * @throws SandboxError `MOUNT_INVALID` for a mount whose source lies below a writable mount's source, or a source
 * that cannot be resolved (a link loop, a component that cannot be read).
 */
export function pinMountSources(mounts: readonly PlannedMount[]): PlannedMount[] {
  const resolved = mounts.map((mount) => ({ mount, real: realPathOf(mount) }));
  const writable = resolved.filter(({ mount }) => !mount.readOnly);
  const pinned: PlannedMount[] = [];
  for (const { mount, real } of resolved) {
    const outer = writable.find((w) => w.mount !== mount && [w.mount.source, w.real].some((root) => [mount.source, real].some((path) => path !== root && isWithin(root, path))));
    if (outer === undefined) {
      pinned.push({ source: real, target: mount.target, readOnly: mount.readOnly });
      continue;
    }
    if (!mount.readOnly && isWithin(outer.mount.source, mount.source) && posix.join(outer.mount.target, toPosix(relative(outer.mount.source, mount.source))) === mount.target) continue;
    throw new SandboxError(
      'MOUNT_INVALID',
      `Cannot mount ${quoted(mount.source)} at ${quoted(mount.target)}: it lies inside the writable path ${quoted(outer.mount.source)}, where a command could replace it (or a folder on its way) with a link that the next launch would follow on the host. Mount it from outside every writable path, or drop it: the writable path already holds it.`,
    );
  }
  return pinned;
}

function realPathOf(mount: PlannedMount): string {
  try {
    return resolveRealPath(mount.source);
  } catch (cause) {
    throw new SandboxError('MOUNT_INVALID', `Cannot mount ${quoted(mount.source)} at ${quoted(mount.target)}: its path cannot be resolved on the host.`, { cause });
  }
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}
