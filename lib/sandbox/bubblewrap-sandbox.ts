import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { posix, relative, sep } from 'node:path';
import { isWithin } from '../fs/path-within';
import { ISOLATED_BASE_ENVIRONMENT } from './base-environment';
import type { BindMount } from './bind-mount';
import { bubblewrapArgs, environmentArgs, SYSTEM_PATHS } from './bubblewrap-args';
import { checkCall } from './call-options';
import { readInheritedEnvironment } from './environment';
import { quoted, SandboxError } from './errors';
import { HOST_PROCESS_ENV, resolveHostBinary } from './host-binary';
import { findHostBash, POSIX_SHELL, usableHostBash, type HostBash } from './host-shell';
import { Lifecycle } from './lifecycle';
import { byDepth, checkMountTargets, checkSourcesExist, explicitMounts, pinMountSources, policyMounts, type PlannedMount } from './mount-plan';
import type { SandboxPolicy } from './policy';
import { KILL_GRACE_MS, runProcessTree } from './process-tree';
import type { Sandbox, SandboxCapabilities, SandboxExecuteOptions, SandboxResult, SandboxShell } from './sandbox';
import { resolveWorkingDirectory } from './working-directory';

/** Options of {@link BubblewrapSandbox}. */
export interface BubblewrapSandboxOptions {
  /** Host variables forwarded by name; a missing one fails the constructor. Values never appear in bwrap's arguments. */
  inheritEnvironment?: readonly string[];
  /** Extra binds, applied after the policy's paths. */
  mounts?: readonly BindMount[];
  /**
   * The bwrap binary (0.5.0 or later). Default `bwrap`, looked up once, when the sandbox is built, on the host
   * process's `PATH` (absolute entries only); a path is resolved against the host's current directory.
   */
  bwrapPath?: string;
  /**
   * The bash that runs `shell: 'bash'` calls, as a host path. Default `bash`, looked up once, when the sandbox is
   * built, on the host process's `PATH` (absolute entries only). It must be visible inside the sandbox: under the
   * system folders (`/usr`, `/bin`, ...) or a read-only path of the policy or mounts.
   */
  bashPath?: string;
}

/** The oldest bwrap with every option this backend passes (`--clearenv` arrived in 0.5.0). */
export const MIN_BWRAP_VERSION = '0.5.0';

/**
 * Runs each command in a fresh Bubblewrap sandbox (Linux, `bwrap` 0.5.0 or later): new session, dies with its
 * parent, every namespace unshared (network shared back only when the policy allows it), every capability dropped
 * (even when the host process is root), an empty tmpfs root with
 * the host's system folders (/usr /bin /sbin /lib /lib64) read-only, the policy's readable paths read-only and
 * writable paths read-write at their host locations, explicit mounts last, and an environment rebuilt from scratch:
 * `PATH`, `HOME=/tmp`, `LANG=C.UTF-8`, `TERM=dumb`, the policy's `environment`, the inherited variables, then the
 * call's `env`.
 *
 * The shell is the host's `/bin/sh` (`shell: 'posix'`) or the host's bash (`shell: 'bash'`), found once on the host's
 * own `PATH` and run at the path it has inside the sandbox. `readOnly: true` is enforced: every bind read-only, the
 * root, `/dev` and `/tmp` remounted read-only, and no network whatever the policy says.
 *
 * The host side never sees that environment: bwrap is resolved to an absolute path from the host's `PATH` when the
 * sandbox is built, and starts with an empty environment; the sandbox's variables reach the sandboxed shell only,
 * through `--clearenv` and `--setenv` words read from a file descriptor (`--args`), never from bwrap's command line.
 *
 * Mount sources are bound by their real paths, resolved by the first call; a mount from inside a writable path is
 * refused (`MOUNT_INVALID`), since a command could replace it with a link that the next launch would follow.
 *
 * Every process of a command lives in the sandbox's pid namespace, which the kernel tears down when the command
 * exits, times out or is cancelled, so nothing it started (`setsid`, `nohup`, double forks) outlives the call; the
 * bwrap process group is SIGKILLed on timeout and cancellation. Memory, pids and CPU limits cannot be enforced by
 * bwrap: a policy that sets them is refused (`LIMIT_UNSUPPORTED`).
 */
export class BubblewrapSandbox implements Sandbox {
  private readonly lifecycle = new Lifecycle('BubblewrapSandbox');
  readonly #inherited: Readonly<Record<string, string>>;
  private readonly mounts: readonly BindMount[];
  private readonly bwrapName: string;
  private readonly bwrapPath: string | undefined;
  private readonly bash: HostBash;
  private versionCheck: Promise<void> | undefined;
  /** The mounts with their sources pinned to real paths by the first call, before any command ran. */
  private pinnedMounts: readonly PlannedMount[] | undefined;

  /**
   * @param policy - the sandbox policy.
   * @param options - see {@link BubblewrapSandboxOptions}.
   * @throws SandboxError `LIMIT_UNSUPPORTED` when the policy sets memory, pids or CPU limits; `ENVIRONMENT_MISSING`
   * for an inherited variable that is not set; `MOUNT_INVALID` for a mount target used twice; `OPTIONS_INVALID` for
   * an empty `bwrapPath` or `bashPath`.
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
    this.bwrapName = options.bwrapPath ?? 'bwrap';
    if (typeof this.bwrapName !== 'string' || this.bwrapName === '' || this.bwrapName.includes('\0')) {
      throw new SandboxError('OPTIONS_INVALID', 'BubblewrapSandbox bwrapPath must be a non-empty path or program name.');
    }
    this.bwrapPath = resolveHostBinary(this.bwrapName);
    this.bash = findHostBash(options.bashPath, 'BubblewrapSandbox');
  }

  /**
   * See {@link Sandbox.execute}. `oomKilled` is never set.
   *
   * @throws SandboxError `OPTIONS_INVALID` for `keepBackground: true` (the pid namespace ends with the command);
   * `ENGINE_UNAVAILABLE` when bwrap is missing or older than `MIN_BWRAP_VERSION` (0.5.0); `SHELL_UNAVAILABLE` for
   * `shell: 'bash'` when the host has no bash, or one the sandbox cannot see or could replace.
   */
  async execute(command: string, options: SandboxExecuteOptions = {}): Promise<SandboxResult> {
    return this.lifecycle.run(options.signal, async (signal) => {
      const call = checkCall(this.policy, command, options, this.#inherited);
      if (call.keepBackground) {
        throw new SandboxError('OPTIONS_INVALID', 'BubblewrapSandbox cannot keep background processes: its pid namespace ends with the command. Run the server and its clients in one command, or use UnsafeLocalSandbox or DockerSandbox.');
      }
      const bwrap = await this.checkedBwrap();
      const cwd = await resolveWorkingDirectory(this.policy, options.cwd);
      const mounts = this.plannedMounts();
      const shell = this.shellPath(call.shell, mounts);
      await checkSourcesExist(mounts);
      return runProcessTree({
        file: bwrap,
        args: bubblewrapArgs({ command, shell, network: this.policy.enableNetworkAccess, mounts, cwd, readOnly: call.readOnly }),
        env: HOST_PROCESS_ENV,
        awaitGone: awaitNamespaceGone,
        fd3Data: environmentArgs({ ...ISOLATED_BASE_ENVIRONMENT, ...call.env }),
        cwd: undefined,
        timeoutMs: call.timeoutMs,
        maxOutputBytes: call.maxOutputBytes,
        onOutput: call.onOutput,
        signal,
        tag: undefined,
        keepBackground: false,
        spawnError: (cause) => this.unavailable(`could not start ${quoted(bwrap, 300)}: ${quoted(cause.message, 300)}`, cause),
      });
    });
  }

  /**
   * `posix` always, `bash` when the host's bash is visible inside the sandbox and outside every writable path;
   * `readOnly` always. Pins the mount sources as the first call would.
   *
   * @throws SandboxError `MOUNT_INVALID` when a mount source cannot be resolved or lies inside a writable path.
   */
  async capabilities(): Promise<SandboxCapabilities> {
    const mounts = this.plannedMounts();
    let bash = true;
    try {
      this.shellPath('bash', mounts);
    } catch {
      bash = false;
    }
    return Promise.resolve(Object.freeze({ shells: Object.freeze(bash ? (['posix', 'bash'] as const) : (['posix'] as const)), readOnly: true }));
  }

  /** Kills running commands and refuses new ones. Idempotent. */
  async close(): Promise<void> {
    await this.lifecycle.close();
  }

  /** Same as {@link BubblewrapSandbox.close}, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** The mounts, their sources pinned to real paths by the first call (or {@link BubblewrapSandbox.capabilities}). */
  private plannedMounts(): readonly PlannedMount[] {
    return (this.pinnedMounts ??= pinMountSources([...byDepth(policyMounts(this.policy)), ...explicitMounts(this.mounts)]));
  }

  /**
   * The shell's path inside the sandbox: `/bin/sh`, or the host's bash where the sandbox sees it, through the system
   * folders (bound at the same place) or a read-only mount (the deepest one that holds it).
   */
  private shellPath(shell: SandboxShell, mounts: readonly PlannedMount[]): string {
    if (shell === 'posix') return POSIX_SHELL;
    const host = usableHostBash(this.bash, mounts.filter((m) => !m.readOnly).map((m) => m.source), 'BubblewrapSandbox');
    if (SYSTEM_PATHS.some((root) => isWithin(root, host))) return host;
    const mount = mounts.filter((m) => isWithin(m.source, host)).sort((a, b) => b.source.length - a.source.length)[0];
    if (mount === undefined) {
      throw new SandboxError('SHELL_UNAVAILABLE', `BubblewrapSandbox: bash resolved to ${quoted(host, 300)}, which the sandbox does not see (only the system folders ${SYSTEM_PATHS.join(' ')} and the policy's paths and mounts are bound). Add its folder to readablePaths, or pass a bashPath under /usr.`);
    }
    return posix.join(mount.target, relative(mount.source, host).split(sep).join('/'));
  }

  /** The resolved bwrap, checked once to be at least `MIN_BWRAP_VERSION` (0.5.0). */
  private async checkedBwrap(): Promise<string> {
    const bwrap = this.bwrapPath;
    if (bwrap === undefined) throw this.unavailable(`no executable ${quoted(this.bwrapName, 300)} on the host PATH`);
    this.versionCheck ??= bwrapVersion(bwrap).then(
      (version) => {
        if (version !== undefined && compareVersions(version, MIN_BWRAP_VERSION) < 0) {
          throw this.unavailable(`${quoted(bwrap, 300)} is bubblewrap ${version}; this sandbox needs ${MIN_BWRAP_VERSION} or later (--clearenv)`);
        }
      },
      (cause: Error) => {
        throw this.unavailable(`could not start ${quoted(bwrap, 300)}: ${quoted(cause.message, 300)}`, cause);
      },
    );
    await this.versionCheck;
    return bwrap;
  }

  private unavailable(reason: string, cause?: unknown): SandboxError {
    return new SandboxError('ENGINE_UNAVAILABLE', `BubblewrapSandbox: ${reason}. Install bubblewrap ${MIN_BWRAP_VERSION} or later (apt-get install bubblewrap) or pass bwrapPath.`, { cause });
  }
}

/**
 * Resolves once the sandbox's pid 1 (its host pid read from bwrap's `--info-fd` report) has exited, or after
 * {@link KILL_GRACE_MS}. bwrap exits as soon as the command does, while the kernel may still be tearing the pid
 * namespace down; pid 1 exits only after every other process of the namespace is gone. The pid is only watched,
 * never signalled (the group kill and `--die-with-parent` end it), so a reused pid cannot be hit.
 */
async function awaitNamespaceGone(info: string): Promise<void> {
  const pid = /"child-pid":\s*(\d+)/.exec(info)?.[1];
  if (pid === undefined) return;
  const deadline = performance.now() + KILL_GRACE_MS;
  while (performance.now() < deadline && isRunning(pid)) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** True while `/proc/<pid>` exists and is not a zombie. */
function isRunning(pid: string): boolean {
  try {
    return !/\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
}

/** The version `bwrap --version` prints (`bubblewrap 0.8.0`), or undefined when it prints none. */
function bwrapVersion(bwrap: string): Promise<string | undefined> {
  return new Promise((resolvePromise, reject) => {
    execFile(bwrap, ['--version'], { env: HOST_PROCESS_ENV, timeout: 10_000 }, (error, stdout) => {
      // A string code (ENOENT, EACCES) means it could not start; an exit status leaves the version to stdout.
      if (error && typeof (error as NodeJS.ErrnoException).code === 'string') return reject(error);
      resolvePromise(/(\d+)\.(\d+)\.(\d+)/.exec(stdout)?.[0]);
    });
  });
}

/** Compares dotted numeric versions: negative when `a` is older than `b`. */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const diff = (left[i] ?? 0) - (right[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}
