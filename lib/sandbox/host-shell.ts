import { isWithin } from '../fs/path-within';
import { resolveRealPath } from '../fs/resolve-real-path';
import { quoted, SandboxError } from './errors';
import { resolveHostBinary } from './host-binary';

/** The POSIX shell of every backend (`shell: 'posix'`): a fixed absolute path, never looked up on a `PATH`. */
export const POSIX_SHELL = '/bin/sh';

/** The host's bash as one backend found it when it was built. */
export interface HostBash {
  /** What was looked up (`bash`, or the `bashPath` option). */
  readonly name: string;
  /** Its absolute path with every link followed, or undefined when there is no such executable. */
  readonly path: string | undefined;
}

/**
 * Finds the host's bash once, as bwrap is found: a bare name on the host process's own `PATH` (absolute entries
 * only), a path against the current directory; the result is pinned to its real path so a later change of a link
 * cannot swap the program.
 *
 * @param name - `bashPath` of the backend's options, default `bash`.
 * @param backend - the backend's name, for the message.
 * @throws SandboxError `OPTIONS_INVALID` for an empty name or one with NUL.
 */
export function findHostBash(name: string | undefined, backend: string): HostBash {
  const wanted = name ?? 'bash';
  if (typeof wanted !== 'string' || wanted === '' || wanted.includes('\0')) {
    throw new SandboxError('OPTIONS_INVALID', `${backend} bashPath must be a non-empty path or program name.`);
  }
  const found = resolveHostBinary(wanted);
  let path: string | undefined;
  try {
    path = found === undefined ? undefined : resolveRealPath(found);
  } catch {
    path = undefined;
  }
  return Object.freeze({ name: wanted, path });
}

/**
 * The host path of bash for one call, refused rather than replaced when it cannot be used.
 *
 * @param writablePaths - host folders the command may write (the policy's, and read-write mounts): a bash inside one
 *   could be replaced by the command itself, so the next call would run whatever it wrote there.
 * @throws SandboxError `SHELL_UNAVAILABLE` when there is no bash or it lies inside a writable path.
 */
export function usableHostBash(bash: HostBash, writablePaths: readonly string[], backend: string): string {
  if (bash.path === undefined) {
    throw new SandboxError('SHELL_UNAVAILABLE', `${backend}: shell 'bash' was asked for, but there is no executable ${quoted(bash.name, 300)} on the host PATH. Install GNU bash (apt-get install bash), pass bashPath, or run the command with shell 'posix'.`);
  }
  const path = bash.path;
  const outer = writablePaths.find((root) => isWithin(root, path));
  if (outer !== undefined) {
    throw new SandboxError('SHELL_UNAVAILABLE', `${backend}: bash resolved to ${quoted(path, 300)}, inside the writable path ${quoted(outer, 300)}, where a command could replace it. Pass a bashPath outside every writable path.`);
  }
  return path;
}

/** The message of a shell a container image does not provide. */
export function missingBashInImage(image: string, candidates: readonly string[]): SandboxError {
  return new SandboxError('SHELL_UNAVAILABLE', `DockerSandbox: shell 'bash' was asked for, but the image ${quoted(image, 300)} has no working bash at ${candidates.join(', ')}. Install bash in the image (apt-get install bash, apk add bash), or run the command with shell 'posix'.`);
}

/** A path as spelled and, when it resolves, as the kernel reaches it. */
export function withRealPath(path: string): string[] {
  try {
    return [path, resolveRealPath(path)];
  } catch {
    return [path];
  }
}
