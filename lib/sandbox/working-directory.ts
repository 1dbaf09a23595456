import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { quoted, SandboxError } from './errors';
import type { SandboxPolicy } from './policy';

/**
 * Resolves and checks the host working directory of a call: a relative
 * `cwd` is resolved against the policy's `workingDirectory` (or `process.cwd()`); the result must exist, be a
 * directory, and lie inside the policy's readable or writable paths when the policy lists any.
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
  if (configured && !policy.allows(dir)) {
    throw new SandboxError('CWD_INVALID', `Working directory ${quoted(dir, 300)} is outside the policy's readable and writable paths; add it to readablePaths or pick a cwd inside them.`);
  }
  return dir;
}
