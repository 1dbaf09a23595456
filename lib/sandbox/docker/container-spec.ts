import type Docker from 'dockerode';
import type { PlannedMount } from '../mount-plan';
import type { SandboxPolicy } from '../policy';

/** Memory limit applied when the policy sets none: 512 MiB, in bytes. */
export const DEFAULT_DOCKER_MEMORY_BYTES = 512 * 1024 * 1024;
/** Process limit applied when the policy sets none. */
export const DEFAULT_DOCKER_PIDS = 256;
/** Label set on every container this library creates, so leftovers can be found (`docker ps -af label=...`). */
export const SANDBOX_LABEL = 'io.agenttoolkit.sandbox';

/** Label that marks the read-only companion container of a DockerSandbox (see {@link containerSpec}). */
export const READ_ONLY_LABEL = 'io.agenttoolkit.sandbox.read-only';

/**
 * The paths Docker makes read-only in every container when none are given (moby's `oci/defaults.go`,
 * `DefaultLinuxSpec`), which setting `ReadonlyPaths` replaces, followed by `/dev`: runc remounts each read-only once
 * the devices exist (writing to a device node still works on a read-only mount). gVisor (runsc) ignores the list.
 */
export const READ_ONLY_PATHS: readonly string[] = Object.freeze(['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger', '/dev']);

/**
 * The long-lived container of one DockerSandbox: an init process as pid 1, a read-only root,
 * every capability dropped, no-new-privileges, a tmpfs `/tmp`, network `none` unless the policy enables it, memory
 * (without extra swap), pids and CPU limits from the policy with safe defaults for memory and pids, and the planned
 * binds. Its entrypoint only keeps it alive; commands run through exec. No environment value is placed in it.
 *
 * With `readOnly`, the companion container of read-only calls: the same image, user, limits and binds, but every
 * bind read-only, network `none` whatever the policy says, read-only tmpfs at `/tmp` and `/dev/shm` (no IPC
 * namespace of its own to share), and `/dev` remounted read-only ({@link READ_ONLY_PATHS}).
 */
export function containerSpec(options: { image: string; policy: SandboxPolicy; mounts: readonly PlannedMount[]; user: string | undefined; network: string; labels: Readonly<Record<string, string>>; readOnly: boolean; runtime?: string | undefined }): Docker.ContainerCreateOptions {
  const { limits } = options.policy;
  const memory = limits.memoryBytes ?? DEFAULT_DOCKER_MEMORY_BYTES;
  const binds: Docker.MountSettings[] = options.mounts.map((m) => ({ Type: 'bind', Source: m.source, Target: m.target, ReadOnly: m.readOnly || options.readOnly }));
  const hostConfig: Docker.HostConfig = {
    Init: true,
    ReadonlyRootfs: true,
    CapDrop: ['ALL'],
    SecurityOpt: ['no-new-privileges'],
    NetworkMode: options.policy.enableNetworkAccess && !options.readOnly ? options.network : 'none',
    Memory: memory,
    MemorySwap: memory,
    PidsLimit: limits.pids ?? DEFAULT_DOCKER_PIDS,
    Mounts: binds,
  };
  if (options.readOnly) {
    hostConfig.IpcMode = 'none';
    hostConfig.ReadonlyPaths = [...READ_ONLY_PATHS];
    hostConfig.Mounts = [...binds, ...['/tmp', '/dev/shm'].map((target) => ({ Type: 'tmpfs' as const, Source: '', Target: target, ReadOnly: true }))];
  } else {
    hostConfig.Tmpfs = { '/tmp': 'rw,nosuid,nodev,mode=1777' };
  }
  if (options.runtime !== undefined) hostConfig.Runtime = options.runtime;
  if (limits.cpus !== undefined) hostConfig.NanoCpus = Math.round(limits.cpus * 1e9);
  return {
    Image: options.image,
    Entrypoint: ['/bin/sh', '-c', 'trap "exit 0" TERM INT; while :; do sleep 3600 & wait $!; done'],
    Cmd: [],
    Env: [],
    WorkingDir: '/',
    Labels: { ...options.labels, [SANDBOX_LABEL]: 'true', ...(options.readOnly ? { [READ_ONLY_LABEL]: 'true' } : {}) },
    ...(options.user === undefined ? {} : { User: options.user }),
    HostConfig: hostConfig,
  };
}
