import type { BindMount } from './bind-mount';
import { bubblewrapArgs } from './bubblewrap-args';
import { checkCall } from './call-options';
import { readInheritedEnvironment } from './environment';
import { SandboxError } from './errors';
import { Lifecycle } from './lifecycle';
import { byDepth, checkMountTargets, checkSourcesExist, explicitMounts, policyMounts } from './mount-plan';
import type { SandboxPolicy } from './policy';
import { runProcessTree } from './process-tree';
import type { ExecuteOptions, Sandbox, SandboxResult } from './sandbox';
import { resolveWorkingDirectory } from './working-directory';

/** Options of {@link BubblewrapSandbox}. */
export interface BubblewrapSandboxOptions {
  /** Host variables forwarded by name; a missing one fails the constructor. Values never appear in bwrap's arguments. */
  inheritEnvironment?: readonly string[];
  /** Extra binds, applied after the policy's paths. */
  mounts?: readonly BindMount[];
  /** The bwrap binary. Default `bwrap`, looked up on `PATH`. */
  bwrapPath?: string;
}

/** `PATH` inside the sandbox. */
export const SANDBOX_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * Runs each command in a fresh Bubblewrap sandbox (Linux, `bwrap` 0.4 or later): new session, dies with its parent,
 * every namespace unshared (network shared back only when the policy allows it), an empty tmpfs root with the host's
 * system folders (/usr /bin /sbin /lib /lib64) read-only, the policy's readable paths read-only and writable paths
 * read-write at their host locations, explicit mounts last, and an environment rebuilt from scratch: `HOME=/tmp`,
 * `PATH`, the policy's `environment`, the inherited variables, then the call's `env`.
 *
 * The timeout and output cap are enforced on the host: the bwrap process group is SIGKILLed, and the sandbox's pid
 * namespace dies with it, so `setsid`/`nohup` descendants die too. Memory, pids and CPU limits cannot be enforced
 * by bwrap: a policy that sets them is refused (`LIMIT_UNSUPPORTED`). Follows the seed's BubblewrapSandbox.
 */
export class BubblewrapSandbox implements Sandbox {
  private readonly lifecycle = new Lifecycle('BubblewrapSandbox');
  readonly #inherited: Readonly<Record<string, string>>;
  private readonly mounts: readonly BindMount[];
  private readonly bwrapPath: string;

  /**
   * @param policy - the sandbox policy.
   * @param options - see {@link BubblewrapSandboxOptions}.
   * @throws SandboxError `LIMIT_UNSUPPORTED` when the policy sets memory, pids or CPU limits; `ENVIRONMENT_MISSING`
   * for an inherited variable that is not set; `MOUNT_INVALID` for a mount target used twice.
   */
  constructor(
    readonly policy: SandboxPolicy,
    options: BubblewrapSandboxOptions = {},
  ) {
    const unsupported = (['memoryBytes', 'pids', 'cpus'] as const).filter((k) => policy.limits[k] !== undefined);
    if (unsupported.length > 0) {
      throw new SandboxError('LIMIT_UNSUPPORTED', `BubblewrapSandbox cannot enforce ${unsupported.join(', ')} limits (bwrap has no resource controls). Remove them from the policy, or use DockerSandbox, which enforces them.`);
    }
    this.#inherited = readInheritedEnvironment(options.inheritEnvironment ?? []);
    this.mounts = options.mounts ?? [];
    checkMountTargets(explicitMounts(this.mounts));
    this.bwrapPath = options.bwrapPath ?? 'bwrap';
  }

  /** See {@link Sandbox.execute}. `oomKilled` is never set. */
  async execute(command: string, options: ExecuteOptions = {}): Promise<SandboxResult> {
    return this.lifecycle.run(options.signal, async (signal) => {
      const call = checkCall(this.policy, command, options);
      const cwd = await resolveWorkingDirectory(this.policy, options.cwd);
      const mounts = [...byDepth(policyMounts(this.policy)), ...explicitMounts(this.mounts)];
      await checkSourcesExist(mounts);
      return runProcessTree({
        file: this.bwrapPath,
        args: bubblewrapArgs({ command, network: this.policy.enableNetworkAccess, mounts, cwd }),
        env: { HOME: '/tmp', PATH: SANDBOX_PATH, ...this.policy.environment, ...this.#inherited, ...call.env },
        cwd: undefined,
        timeoutMs: call.timeoutMs,
        maxOutputBytes: call.maxOutputBytes,
        signal,
        tagProcesses: false,
        spawnError: (cause) => new SandboxError('ENGINE_UNAVAILABLE', `Could not start ${this.bwrapPath}: ${cause.message}. Install bubblewrap (apt-get install bubblewrap) or pass bwrapPath.`, { cause }),
      });
    });
  }

  /** Kills running commands and refuses new ones. Idempotent. */
  async close(): Promise<void> {
    await this.lifecycle.close();
  }

  /** Same as {@link BubblewrapSandbox.close}, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
