import { randomUUID } from 'node:crypto';
import type Docker from 'dockerode';
import type { BindMount } from '../bind-mount';
import { checkCall } from '../call-options';
import { readInheritedEnvironment } from '../environment';
import { quoted, SandboxError } from '../errors';
import { Lifecycle } from '../lifecycle';
import { checkSourcesExist, pinMountSources, type PlannedMount } from '../mount-plan';
import type { SandboxPolicy } from '../policy';
import { RUN_TAG_VARIABLE } from '../process-tree';
import type { Sandbox, SandboxExecuteOptions, SandboxResult } from '../sandbox';
import { resolveWorkingDirectory } from '../working-directory';
import { dockerClient, type DockerConnection } from './connection';
import { containerPathOf, planContainerMounts } from './container-mounts';
import { CHILDREN_OF_INIT_SCRIPT, runContainerScript, SWEEP_SCRIPT } from './container-script';
import { containerSpec } from './container-spec';
import { engineError, isGone } from './engine-errors';
import { runExec } from './exec-run';

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
 * `/bin/sh -c` with the policy's environment, the inherited variables, the call's `env` and a unique
 * `AGENTTOOLKIT_SANDBOX_RUN` value, all sent in the exec request's environment, never on a command line.
 *
 * When a command ends (normally unless `keepBackground`, by timeout or by cancellation) a sweep runs inside the
 * container: it kills every process that carries the call's `AGENTTOOLKIT_SANDBOX_RUN` value, leaving concurrent
 * calls alone; when no other call runs, it kills every process but the container's own, so a process that cleared
 * its environment is caught too (while other calls run, such a process, or one that keeps changing its pid, survives
 * until the next lone sweep). Mount sources are bound by their real paths; a mount from inside a writable path is
 * refused (`MOUNT_INVALID`). If the sweep cannot run (the image lacks `tr` or `grep`, the pids limit is
 * reached) the container is killed instead (concurrent calls die too, `/tmp` is emptied) and started again for the
 * next command. `close()` removes the container. The image must provide `/bin/sh`.
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
  private container: Docker.Container | undefined;
  private starting: Promise<Docker.Container> | undefined;
  private running = false;
  /** Calls between their start and the end of their sweep. */
  private active = 0;
  /** A sweep of every process of the container, while one runs. */
  private exclusiveSweep: Promise<void> | undefined;
  /** Pid (inside the container) of the entrypoint that keeps it alive, when it could be told apart. */
  private keepAlivePid: string | undefined;
  /** True once a call kept background processes in the running container: only per-call sweeps from then on. */
  private keptBackground = false;

  /**
   * @param image - the image to run (must contain `/bin/sh`); it is not pulled.
   * @param policy - the sandbox policy.
   * @param options - see {@link DockerSandboxOptions}.
   * @throws SandboxError `ENVIRONMENT_MISSING` for an unset inherited variable, `MOUNT_INVALID` for clashing mount
   * targets, `OPTIONS_INVALID` for `user: 'host'` where the host has no uid or a label that is not a string.
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
    this.docker = dockerClient(options.connection);
  }

  /**
   * Creates and starts the container now rather than on the first command (to measure or pay start-up apart).
   * Returns the container id.
   *
   * @throws SandboxError `SANDBOX_CLOSED`, `MOUNT_INVALID` for a missing host path, `ENGINE_UNAVAILABLE` or `ENGINE_FAILED`.
   */
  async start(): Promise<string> {
    this.lifecycle.assertOpen();
    return (await this.ensureRunning()).id;
  }

  /** See {@link Sandbox.execute}. Sets `oomKilled`. */
  async execute(command: string, options: SandboxExecuteOptions = {}): Promise<SandboxResult> {
    return this.lifecycle.run(options.signal, async (signal) => {
      signal.throwIfAborted();
      const call = checkCall(this.policy, command, options, this.#inherited);
      const cwd = await resolveWorkingDirectory(this.policy, options.cwd);
      const workingDir = cwd === undefined ? undefined : containerPathOf(cwd, this.mounts);
      const tag = randomUUID();
      const env = { ...call.env, [RUN_TAG_VARIABLE]: tag };
      // No call may start while a sweep of the whole container runs; that sweep starts only when no call runs.
      while (this.exclusiveSweep) await this.exclusiveSweep;
      this.active++;
      try {
        for (let attempt = 1; ; attempt++) {
          const container = await this.ensureRunning();
          if (call.keepBackground) this.keptBackground = true;
          try {
            return await runExec({
              docker: this.docker,
              container,
              command,
              env,
              workingDir,
              user: this.user,
              timeoutMs: call.timeoutMs,
              maxOutputBytes: call.maxOutputBytes,
              onOutput: call.onOutput,
              signal,
              keepBackground: call.keepBackground,
              sweep: () => this.sweep(container, tag),
              killContainer: () => this.kill(container),
            });
          } catch (error) {
            if (error === signal.reason) throw error;
            // The container stopped (409) or vanished (404) behind our back: bring it back once, then give up.
            if (attempt === 1 && this.forget(container, error)) continue;
            throw engineError(error, 'run the command', this.image);
          }
        }
      } finally {
        this.active--;
      }
    });
  }

  /** Kills running commands and removes the container. Idempotent. */
  async close(): Promise<void> {
    await this.lifecycle.close();
    await this.starting?.catch(() => undefined);
    const container = this.container;
    this.container = undefined;
    if (container) await container.remove({ force: true }).catch((error: unknown) => ignoreGone(error, 'remove the container', this.image));
  }

  /** Same as {@link DockerSandbox.close}, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private ensureRunning(): Promise<Docker.Container> {
    if (this.running && this.container) return Promise.resolve(this.container);
    this.starting ??= this.startContainer().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async startContainer(): Promise<Docker.Container> {
    try {
      if (!this.container) {
        const mounts = pinMountSources(this.mounts);
        await checkSourcesExist(mounts);
        const spec = containerSpec({ image: this.image, policy: this.policy, mounts, user: this.user, network: this.network, labels: this.labels });
        this.container = await this.docker.createContainer(spec);
      }
      await this.container.start().catch((error: unknown) => ignoreGone(error, 'start the container', this.image));
      this.keepAlivePid = await findKeepAlive(this.docker, this.container, this.user);
      this.keptBackground = false;
      this.running = true;
      return this.container;
    } catch (error) {
      throw error instanceof SandboxError ? error : engineError(error, 'create or start the container', this.image);
    }
  }

  /** Drops what we know of a container the engine says is stopped or gone; true when the call may be retried. */
  private forget(container: Docker.Container, error: unknown): boolean {
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== 404 && status !== 409) return false;
    if (this.container === container) {
      this.running = false;
      if (status === 404) this.container = undefined;
    }
    return true;
  }

  /**
   * Kills the processes of the call tagged `tag`. When it is the only call running and no call kept background
   * processes, every process but the container's own is killed instead, so that a process which cleared or rewrote
   * its environment cannot hide; no other call may start meanwhile.
   */
  private sweep(container: Docker.Container, tag: string): Promise<boolean> {
    const keep = this.keepAlivePid;
    if (this.active === 1 && keep !== undefined && !this.keptBackground) {
      const run = runContainerScript(this.docker, container, this.user, SWEEP_SCRIPT, ['all', keep]).then((r) => r.exitCode === 0);
      this.exclusiveSweep = run.then(() => {
        this.exclusiveSweep = undefined;
      });
      return run;
    }
    return runContainerScript(this.docker, container, this.user, SWEEP_SCRIPT, ['tag', `${RUN_TAG_VARIABLE}=${tag}`]).then((r) => r.exitCode === 0);
  }

  /** SIGKILLs the container's init, which takes every process of the container with it; start() revives it. */
  private async kill(container: Docker.Container): Promise<void> {
    this.running = false;
    await container.kill({ signal: 'SIGKILL' }).catch((error: unknown) => ignoreGone(error, 'kill the container', this.image));
    await container.wait({ condition: 'not-running' }).catch(() => undefined);
  }
}

/** The pid of the container's keep-alive entrypoint: the only child of its init right after it started. */
async function findKeepAlive(docker: Docker, container: Docker.Container, user: string | undefined): Promise<string | undefined> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const { exitCode, stdout } = await runContainerScript(docker, container, user, CHILDREN_OF_INIT_SCRIPT, []);
    const pids = stdout.split('\n').filter((line) => /^\d+$/.test(line));
    if (exitCode !== 0 || pids.length > 1) return undefined;
    if (pids.length === 1) return pids[0];
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return undefined;
}

function checkLabels(labels: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  for (const [key, value] of Object.entries(labels)) {
    if (key === '' || typeof value !== 'string') throw new SandboxError('OPTIONS_INVALID', `DockerSandbox labels: ${quoted(key)} must be a non-empty name with a string value.`);
  }
  return Object.freeze({ ...labels });
}

function ignoreGone(error: unknown, doing: string, image: string): void {
  if (!isGone(error)) throw engineError(error, doing, image);
}

function hostUser(): string {
  if (typeof process.getuid !== 'function' || typeof process.getgid !== 'function') {
    throw new SandboxError('OPTIONS_INVALID', "user: 'host' needs a POSIX host (process.getuid); pass an explicit 'uid:gid' instead.");
  }
  return `${process.getuid()}:${process.getgid()}`;
}
