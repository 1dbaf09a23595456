import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isWithin } from '../fs/path-within';
import { resolveRealPath } from '../fs/resolve-real-path';
import { quoted, SandboxError } from './errors';
import type { SandboxPolicy } from './policy';

/**
 * Resolves and checks the host working directory of a call: a relative
 * `cwd` is resolved against the policy's `workingDirectory` (or `process.cwd()`); the result must exist, be a
 * directory, and lie inside the policy's readable or writable paths when the policy lists any, both as spelled (the
 * sandbox shows those paths where the host has them) and as the folder the kernel reaches once links are followed
 * (so `<workspace>/link`, a link to `/etc`, is outside).
 *
 * @returns the absolute host path, or `undefined` when neither the call nor the policy names one.
 * @throws SandboxError `CWD_INVALID` saying which rule failed.
 */
export async function resolveWorkingDirectory(policy: SandboxPolicy, cwd: string | undefined): Promise<string | undefined> {
  if (cwd === undefined && policy.workingDirectory === undefined) return undefined;
  const dir = resolve(policy.workingDirectory ?? process.cwd(), cwd ?? '.');
  const info = await stat(dir).catch((cause: unknown) => {
    throw new SandboxError('CWD_INVALID', `Working directory ${quoted(dir, 300)} does not exist or cannot be read.`, { cause });
  });
  if (!info.isDirectory()) throw new SandboxError('CWD_INVALID', `Working directory ${quoted(dir, 300)} is not a directory.`);
  const configured = policy.readablePaths.length + policy.writablePaths.length > 0;
  if (configured && !(policy.allows(dir) && reallyAllowed(policy, dir))) {
    throw new SandboxError('CWD_INVALID', `Working directory ${quoted(dir, 300)} is outside the policy's readable and writable paths; add it to readablePaths or pick a cwd inside them.`);
  }
  return dir;
}

/** True when the folder `dir` reaches, links followed, lies inside the real path of a policy path. */
function reallyAllowed(policy: SandboxPolicy, dir: string): boolean {
  const real = (path: string): string | undefined => {
    try {
      return resolveRealPath(path);
    } catch {
      return undefined;
    }
  };
  const target = real(dir);
  if (target === undefined) return false;
  return [...policy.readablePaths, ...policy.writablePaths].some((root) => {
    const realRoot = real(root);
    return realRoot !== undefined && isWithin(realRoot, target);
  });
}
