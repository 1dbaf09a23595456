import { isAbsolute, posix, resolve } from 'node:path';
import { quoted, SandboxError } from './errors';

/**
 * A host folder or file bound into the sandbox at a fixed target, in addition to the policy's paths. Used by
 * `DockerSandbox` and `BubblewrapSandbox`.
 *
 * A read-write mount writes directly back to the host.
 */
export class BindMount {
  private constructor(
    /** Absolute host path. It must exist when the sandbox starts. */
    readonly source: string,
    /** Absolute POSIX path inside the sandbox: not `/`, without `..` segments. */
    readonly target: string,
    /** True for a read-only bind. */
    readonly readOnly: boolean,
  ) {
    Object.freeze(this);
  }

  /**
   * Binds `source` (host, resolved to absolute) read-only at `target`.
   *
   * @throws SandboxError `MOUNT_INVALID` when `target` is not absolute, is `/`, or contains `..`.
   */
  static readOnly(source: string, target: string): BindMount {
    return new BindMount(resolve(source), checkTarget(target), true);
  }

  /**
   * Binds `source` (host, resolved to absolute) read-write at `target`; writes land on the host.
   *
   * @throws SandboxError `MOUNT_INVALID` when `target` is not absolute, is `/`, or contains `..`.
   */
  static readWrite(source: string, target: string): BindMount {
    return new BindMount(resolve(source), checkTarget(target), false);
  }
}

function checkTarget(target: string): string {
  if (typeof target !== 'string' || !isAbsolute(target) || !target.startsWith('/') || target.includes('\0')) {
    throw new SandboxError('MOUNT_INVALID', `BindMount target ${quoted(target)} must be an absolute POSIX path.`);
  }
  if (target.split('/').includes('..')) {
    throw new SandboxError('MOUNT_INVALID', `BindMount target ${quoted(target)} must not contain '..'.`);
  }
  const normal = posix.normalize(target).replace(/\/+$/, '');
  if (normal === '') throw new SandboxError('MOUNT_INVALID', 'BindMount target must not be "/": mount below it instead.');
  return normal;
}
