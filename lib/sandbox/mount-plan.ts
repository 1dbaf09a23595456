import { stat } from 'node:fs/promises';
import type { BindMount } from './bind-mount';
import { SandboxError } from './errors';
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
      throw new SandboxError('MOUNT_INVALID', `Mount target ${mount.target} is used twice; give each BindMount its own target.`);
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
      throw new SandboxError('MOUNT_INVALID', `Cannot mount ${mount.source} at ${mount.target}: the host path does not exist. Create it or remove it from the policy/mounts.`, { cause });
    });
  }
}
