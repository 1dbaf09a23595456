import { posix, relative, sep } from 'node:path';
import type { BindMount } from '../bind-mount';
import { SandboxError } from '../errors';
import { checkMountTargets, type PlannedMount } from '../mount-plan';
import { isWithin } from '../../fs/path-within';
import type { SandboxPolicy } from '../policy';

/** Where the policy's working directory appears inside the container. */
export const WORKSPACE_TARGET = '/workspace';
/** Prefix under which the policy's other paths appear (`/data` on the host is `/mnt/data` inside). */
export const POLICY_PATHS_TARGET = '/mnt';

/**
 * Plans the container's binds: the working directory at `/workspace`, other
 * readable paths read-only and writable paths read-write under `/mnt/<host path>` (or below `/workspace` when inside
 * it), then the explicit mounts. A path already covered by a mount with the same or a stronger mode is skipped.
 *
 * @throws SandboxError `MOUNT_INVALID` when two mounts share a target.
 */
export function planContainerMounts(policy: SandboxPolicy, explicit: readonly BindMount[]): PlannedMount[] {
  const wd = policy.workingDirectory;
  const writable = (path: string): boolean => policy.writablePaths.some((w) => isWithin(w, path));
  const targetOf = (path: string): string => (wd !== undefined && isWithin(wd, path) ? posix.join(WORKSPACE_TARGET, toPosix(relative(wd, path))) : posix.join(POLICY_PATHS_TARGET, toPosix(path)));
  const candidates: PlannedMount[] = [];
  if (wd !== undefined) candidates.push({ source: wd, target: WORKSPACE_TARGET, readOnly: !writable(wd) });
  for (const path of policy.readablePaths) candidates.push({ source: path, target: targetOf(path), readOnly: true });
  for (const path of policy.writablePaths) candidates.push({ source: path, target: targetOf(path), readOnly: false });
  const planned = candidates.filter((m, i) => !candidates.some((other, j) => j !== i && covers(other, m) && (!other.readOnly || m.readOnly) && (j < i || !sameMount(other, m))));
  const all = [...planned, ...explicit.map((m) => ({ source: m.source, target: m.target, readOnly: m.readOnly }))];
  checkMountTargets(all);
  return all;
}

/**
 * Maps a host path to its path inside the container through the deepest mount whose source contains it.
 *
 * @throws SandboxError `CWD_INVALID` when no mount contains it.
 */
export function containerPathOf(hostPath: string, mounts: readonly PlannedMount[]): string {
  const matches = mounts.filter((m) => isWithin(m.source, hostPath)).sort((a, b) => b.source.length - a.source.length);
  const best = matches[0];
  if (best === undefined) {
    throw new SandboxError('CWD_INVALID', `Working directory ${hostPath} is not mounted in the container; add it (or a parent) to the policy's paths or to mounts.`);
  }
  return posix.join(best.target, toPosix(relative(best.source, hostPath)));
}

/** True when `outer` contains `inner` and maps it to the same target. */
function covers(outer: PlannedMount, inner: PlannedMount): boolean {
  return isWithin(outer.source, inner.source) && posix.join(outer.target, toPosix(relative(outer.source, inner.source))) === inner.target;
}

function sameMount(a: PlannedMount, b: PlannedMount): boolean {
  return a.source === b.source && a.target === b.target && a.readOnly === b.readOnly;
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}
