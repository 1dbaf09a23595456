import type Docker from 'dockerode';
import type { PlannedMount } from '../mount-plan';
import type { SandboxPolicy } from '../policy';

/** Memory limit applied when the policy sets none: 512 MiB, in bytes. */
export const DEFAULT_DOCKER_MEMORY_BYTES = 512 * 1024 * 1024;
/** Process limit applied when the policy sets none. */
export const DEFAULT_DOCKER_PIDS = 256;
/** Label set on every container this library creates, so leftovers can be found (`docker ps -af label=...`). */
export const SANDBOX_LABEL = 'io.agenttoolkit.sandbox';

/**
 * The long-lived container of one DockerSandbox: an init process as pid 1, a read-only root,
 * every capability dropped, no-new-privileges, a tmpfs `/tmp`, network `none` unless the policy enables it, memory
 * (without extra swap), pids and CPU limits from the policy with safe defaults for memory and pids, and the planned
 * binds. Its entrypoint only keeps it alive; commands run through exec. No environment value is placed in it.
 */
export function containerSpec(options: { image: string; policy: SandboxPolicy; mounts: readonly PlannedMount[]; user: string | undefined; network: string; labels: Readonly<Record<string, string>> }): Docker.ContainerCreateOptions {
  const { limits } = options.policy;
  const memory = limits.memoryBytes ?? DEFAULT_DOCKER_MEMORY_BYTES;
  const hostConfig: Docker.HostConfig = {
    Init: true,
    ReadonlyRootfs: true,
    CapDrop: ['ALL'],
    SecurityOpt: ['no-new-privileges'],
    Tmpfs: { '/tmp': 'rw,nosuid,nodev,mode=1777' },
    NetworkMode: options.policy.enableNetworkAccess ? options.network : 'none',
    Memory: memory,
    MemorySwap: memory,
    PidsLimit: limits.pids ?? DEFAULT_DOCKER_PIDS,
    Mounts: options.mounts.map((m) => ({ Type: 'bind', Source: m.source, Target: m.target, ReadOnly: m.readOnly })),
  };
  if (limits.cpus !== undefined) hostConfig.NanoCpus = Math.round(limits.cpus * 1e9);
  return {
    Image: options.image,
    Entrypoint: ['/bin/sh', '-c', 'trap "exit 0" TERM INT; while :; do sleep 3600 & wait $!; done'],
    Cmd: [],
    Env: [],
    WorkingDir: '/',
    Labels: { ...options.labels, [SANDBOX_LABEL]: 'true' },
    ...(options.user === undefined ? {} : { User: options.user }),
    HostConfig: hostConfig,
  };
}
