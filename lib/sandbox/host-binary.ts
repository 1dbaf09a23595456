import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * The fixed environment of every host process a sandbox starts itself (bwrap): nothing of the policy, the call or
 * the host, so no variable such as `PATH`, `LD_PRELOAD`, `LD_LIBRARY_PATH` or `BASH_ENV` can steer it. The sandbox's
 * variables reach only the sandboxed process, through the launcher's own channel.
 */
export const HOST_PROCESS_ENV: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Resolves a host program to an absolute path, once, from the host's own `PATH` (never a policy's or a call's). A
 * name with a `/` is resolved against the host's current directory; a bare name is looked up in the absolute entries
 * of `hostPath` only (relative and empty entries, which would depend on the current directory, are skipped).
 *
 * @param name - a bare program name (`bwrap`) or a path.
 * @param hostPath - the search path; default the host process's `PATH` at the time of the call.
 * @returns the absolute path of the first executable regular file found, or undefined when there is none.
 */
export function resolveHostBinary(name: string, hostPath: string | undefined = process.env.PATH): string | undefined {
  if (name.includes('/')) return resolve(name);
  for (const dir of (hostPath ?? '').split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
