import { randomUUID } from 'node:crypto';
import type Docker from 'dockerode';
import type { BindMount } from '../bind-mount';
import { ISOLATED_BASE_ENVIRONMENT } from '../base-environment';
import { checkCall } from '../call-options';
import { readInheritedEnvironment } from '../environment';
import { quoted, SandboxError } from '../errors';
import { Lifecycle } from '../lifecycle';
import { checkSourcesExist, pinMountSources, type PlannedMount } from '../mount-plan';
import type { SandboxPolicy } from '../policy';
import type { Sandbox, SandboxCapabilities, SandboxExecuteOptions, SandboxResult } from '../sandbox';
import { resolveWorkingDirectory } from '../working-directory';
import { dockerClient, type DockerConnection } from './connection';
import { containerPathOf, planContainerMounts } from './container-mounts';
import { containerSpec } from './container-spec';
import { SandboxContainer } from './sandbox-container';

/** Options of {@link DockerSandbox}. */
export interface DockerSandboxOptions {
  /** The engine to use: a dockerode client, its options (socket, or remote host + TLS), or a `DOCKER_HOST`-style URL. */
  connection?: DockerConnection;
  /**
   * Host variables forwarded by name. A missing one fails the constructor. Values go only into each exec request's
   * environment: never into the container's configuration, its command line, a log line or an error message.
   */
  inheritEnvironment?: readonly string[];
  /** Extra binds, after the policy's paths; targets must be unique. */
  mounts?: readonly BindMount[];
  /**
   * User of every process: `'host'` maps to the host's uid:gid (POSIX only) so files written to read-write mounts
   * stay owned by the developer; any other string (`'1000:1000'`, `'nobody'`) is passed to the engine. Default: the
   * image's user.
   */
  user?: 'host' | (string & {});
  /** Docker network joined when the policy enables network access. Default `bridge`. */
  network?: string;
  /**
   * OCI runtime of the containers, as the engine knows it (`runsc` for gVisor, registered with dockerd's
   * `--add-runtime` or its `runtimes` setting). Default: the engine's default runtime (runc).
   */
  runtime?: string;
  /** Extra labels of the container (to find it with `docker ps --filter label=...`), beside `io.agenttoolkit.sandbox`. */
  labels?: Readonly<Record<string, string>>;
}

/**
 * Runs commands in one long-lived Docker container per sandbox, through dockerode.
 *
 * The container is created on first use (or by {@link DockerSandbox.start}) with: an init process, a read-only root,
 * all capabilities dropped, no-new-privileges, a tmpfs `/tmp`, network `none` unless the policy enables it, the
 * policy's memory (512 MiB when unset, no extra swap), pids (256 when unset) and CPU limits, the workspace bound at
 * `/workspace`, other policy paths under `/mnt/<host path>`, then the explicit mounts. Each command is an exec of
 * `/bin/sh -c` (`shell: 'posix'`) or of the image's bash (`shell: 'bash'`: the first of `/bin/bash`,
 * `/usr/bin/bash`, `/usr/local/bin/bash` that runs as bash, probed once per container, else `SHELL_UNAVAILABLE`).
 * Its environment is `PATH` (the image's, else the standard list), `HOME=/tmp`, `LANG=C.UTF-8` and `TERM=dumb` where
 * the image's `ENV` does not set them, the image's `ENV`, then the policy's environment, the inherited variables, the
 * call's `env` and a unique `AGENTTOOLKIT_SANDBOX_RUN` value, all sent in the exec request's environment, never on a
 * command line; the `HOSTNAME` the engine adds is dropped.
 *
 * `readOnly: true` calls run in a second container, created on the first such call and kept until `close()`: the
 * same image, user, limits and binds, but every bind read-only, network `none`, read-only `/tmp`, `/dev/shm` and (on
 * runc) `/dev`. It sees the same files, but has its own `/tmp` (empty) and its own processes: a read-only call does
 * not see what a writable call left in `/tmp` or still runs.
 *
 * When a command ends (normally unless `keepBackground`, by timeout or by cancellation) a sweep runs inside the
 * container: it kills every process that carries the call's `AGENTTOOLKIT_SANDBOX_RUN` value, leaving concurrent
 * calls alone; when no other call runs, it kills every process but the container's own, so a process that cleared
 * its environment is caught too (while other calls run, such a process, or one that keeps changing its pid, survives
 * until the next lone sweep). Mount sources are bound by their real paths; a mount from inside a writable path is
 * refused (`MOUNT_INVALID`). If the sweep cannot run (the image lacks `tr` or `grep`, the pids limit is
 * reached) the container is killed instead (concurrent calls die too, `/tmp` is emptied) and started again for the
 * next command. `close()` removes the containers. The image must provide `/bin/sh`.
 *
 * Note: dockerode's `DEBUG=modem` trace prints raw request bodies, exec environments included; keep it off where
 * inherited secrets are used.
 */
export class DockerSandbox implements Sandbox {
  private readonly lifecycle = new Lifecycle('DockerSandbox');
  private readonly docker: Docker;
  readonly #inherited: Readonly<Record<string, string>>;
  private readonly mounts: readonly PlannedMount[];
  private readonly user: string | undefined;
  private readonly network: string;
  private readonly labels: Readonly<Record<string, string>>;
  private readonly runtime: string | undefined;
  /** The mounts with their sources pinned to real paths when the first container was created. */
  private pinnedMounts: readonly PlannedMount[] | undefined;
  /** The container of ordinary calls. */
  private readonly writable: SandboxContainer;
  /** The container of `readOnly` calls, once one was made. */
  private readOnly: SandboxContainer | undefined;

  /**
   * @param image - the image to run (must contain `/bin/sh`); it is not pulled.
   * @param policy - the sandbox policy.
   * @param options - see {@link DockerSandboxOptions}.
   * @throws SandboxError `ENVIRONMENT_MISSING` for an unset inherited variable, `MOUNT_INVALID` for clashing mount
   * targets, `OPTIONS_INVALID` for `user: 'host'` where the host has no uid, a label that is not a string or an
   * empty `runtime`.
   */
  constructor(
    readonly image: string,
    readonly policy: SandboxPolicy,
    options: DockerSandboxOptions = {},
  ) {
    this.#inherited = readInheritedEnvironment(options.inheritEnvironment ?? []);
    this.mounts = planContainerMounts(policy, options.mounts ?? []);
    this.user = options.user === 'host' ? hostUser() : options.user;
    this.network = options.network ?? 'bridge';
    this.labels = checkLabels(options.labels ?? {});
    if (options.runtime !== undefined && (typeof options.runtime !== 'string' || options.runtime === '')) {
      throw new SandboxError('OPTIONS_INVALID', 'DockerSandbox runtime must be a non-empty runtime name (runc, runsc).');
    }
    this.runtime = options.runtime;
    this.docker = dockerClient(options.connection);
    this.writable = this.container(false);
  }

  /**
   * Creates and starts the container now rather than on the first command (to measure or pay start-up apart).
   * Returns the container id.
   *
   * @throws SandboxError `SANDBOX_CLOSED`, `MOUNT_INVALID` for a missing host path, `ENGINE_UNAVAILABLE` or `ENGINE_FAILED`.
   */
  async start(): Promise<string> {
    this.lifecycle.assertOpen();
    return this.writable.start();
  }

  /**
   * See {@link Sandbox.execute}. Sets `oomKilled`.
   *
   * @throws SandboxError `SHELL_UNAVAILABLE` for `shell: 'bash'` when the image has no bash.
   */
  async execute(command: string, options: SandboxExecuteOptions = {}): Promise<SandboxResult> {
    return this.lifecycle.run(options.signal, async (signal) => {
      signal.throwIfAborted();
      const call = checkCall(this.policy, command, options, this.#inherited);
      const cwd = await resolveWorkingDirectory(this.policy, options.cwd);
      const workingDir = cwd === undefined ? undefined : containerPathOf(cwd, this.mounts);
      const container = call.readOnly ? (this.readOnly ??= this.container(true)) : this.writable;
      return container.run({
        command,
        shell: call.shell,
        base: ISOLATED_BASE_ENVIRONMENT,
        env: call.env,
        tag: randomUUID(),
        workingDir,
        timeoutMs: call.timeoutMs,
        maxOutputBytes: call.maxOutputBytes,
        onOutput: call.onOutput,
        signal,
        keepBackground: call.keepBackground,
      });
    });
  }

  /**
   * `posix` always, `bash` when the image has one (starts the container to probe it); `readOnly` always.
   *
   * @throws SandboxError `SANDBOX_CLOSED`, and what {@link DockerSandbox.start} throws.
   */
  async capabilities(): Promise<SandboxCapabilities> {
    this.lifecycle.assertOpen();
    const bash = await this.writable.shellPath('bash').then(
      () => true,
      (error: unknown) => {
        if (error instanceof SandboxError && error.code === 'SHELL_UNAVAILABLE') return false;
        throw error;
      },
    );
    return Object.freeze({ shells: Object.freeze(bash ? (['posix', 'bash'] as const) : (['posix'] as const)), readOnly: true });
  }

  /** Kills running commands and removes the containers. Idempotent. */
  async close(): Promise<void> {
    await this.lifecycle.close();
    await Promise.all([this.writable.remove(), this.readOnly?.remove()]);
  }

  /** Same as {@link DockerSandbox.close}, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private container(readOnly: boolean): SandboxContainer {
    return new SandboxContainer(this.docker, this.image, this.user, async () => {
      const mounts = (this.pinnedMounts ??= pinMountSources(this.mounts));
      await checkSourcesExist(mounts);
      return containerSpec({ image: this.image, policy: this.policy, mounts, user: this.user, network: this.network, labels: this.labels, readOnly, runtime: this.runtime });
    });
  }
}

function checkLabels(labels: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  for (const [key, value] of Object.entries(labels)) {
    if (key === '' || typeof value !== 'string') throw new SandboxError('OPTIONS_INVALID', `DockerSandbox labels: ${quoted(key)} must be a non-empty name with a string value.`);
  }
  return Object.freeze({ ...labels });
}

function hostUser(): string {
  if (typeof process.getuid !== 'function' || typeof process.getgid !== 'function') {
    throw new SandboxError('OPTIONS_INVALID', "user: 'host' needs a POSIX host (process.getuid); pass an explicit 'uid:gid' instead.");
  }
  return `${process.getuid()}:${process.getgid()}`;
}
