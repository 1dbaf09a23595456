import type Docker from 'dockerode';
import { missingBashInImage, POSIX_SHELL } from '../host-shell';
import { RUN_TAG_VARIABLE } from '../process-tree';
import type { SandboxOutputChunk, SandboxResult, SandboxShell } from '../sandbox';
import { SandboxError } from '../errors';
import { BASH_CANDIDATES, BASH_PROBE_SCRIPT, CHILDREN_OF_INIT_SCRIPT, runContainerScript, SWEEP_SCRIPT } from './container-script';
import { engineError, isGone } from './engine-errors';
import { runExec } from './exec-run';

/** One command for {@link SandboxContainer.run}, already checked by the DockerSandbox. */
export interface ContainerCall {
  command: string;
  shell: SandboxShell;
  /** The base environment: each variable is sent only when the image's own `ENV` does not set it. */
  base: Readonly<Record<string, string>>;
  /** The policy's, inherited and call variables; always sent. */
  env: Readonly<Record<string, string>>;
  tag: string;
  workingDir: string | undefined;
  timeoutMs: number;
  maxOutputBytes: number;
  onOutput: ((chunk: SandboxOutputChunk) => void) | undefined;
  signal: AbortSignal;
  keepBackground: boolean;
}

/**
 * One long-lived container of a DockerSandbox and everything that depends on it: created from `spec()` on first use,
 * started again after it was killed, the calls that run in it (so a sweep of every process waits for them), its
 * keep-alive pid, the names its image's `ENV` sets, and its bash, probed once.
 */
export class SandboxContainer {
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
  /** Names of the variables the container's configuration sets (the image's `ENV`). */
  private imageNames = new Set<string>();
  private bashProbe: Promise<string | undefined> | undefined;

  /**
   * @param docker - the engine client.
   * @param image - the image, for messages.
   * @param user - `uid:gid` or name of every exec, or undefined for the image's.
   * @param spec - builds the container's creation request (pins the mounts); called once per creation.
   */
  constructor(
    private readonly docker: Docker,
    private readonly image: string,
    private readonly user: string | undefined,
    private readonly spec: () => Promise<Docker.ContainerCreateOptions>,
  ) {}

  /** Creates and starts the container unless it runs; returns its id. */
  async start(): Promise<string> {
    return (await this.ensureRunning()).id;
  }

  /**
   * The container path of the shell, probing for bash once.
   *
   * @throws SandboxError `SHELL_UNAVAILABLE` when the image has no working bash at {@link BASH_CANDIDATES}.
   */
  async shellPath(shell: SandboxShell): Promise<string> {
    if (shell === 'posix') return POSIX_SHELL;
    const container = await this.ensureRunning();
    this.bashProbe ??= runContainerScript(this.docker, container, this.user, BASH_PROBE_SCRIPT, BASH_CANDIDATES).then((r) => {
      // A probe that could not run at all (the engine failed, the pids limit) says nothing about the image: ask again.
      if (r.exitCode === null) this.bashProbe = undefined;
      return r.exitCode === 0 ? r.stdout.trim() : undefined;
    });
    const path = await this.bashProbe;
    if (path === undefined) throw missingBashInImage(this.image, BASH_CANDIDATES);
    return path;
  }

  /** Runs one command, bringing the container back once if the engine says it stopped or vanished meanwhile. */
  async run(call: ContainerCall): Promise<SandboxResult> {
    // No call may start while a sweep of the whole container runs; that sweep starts only when no call runs.
    while (this.exclusiveSweep) await this.exclusiveSweep;
    this.active++;
    try {
      const shell = await this.shellPath(call.shell);
      for (let attempt = 1; ; attempt++) {
        const container = await this.ensureRunning();
        if (call.keepBackground) this.keptBackground = true;
        const base = Object.fromEntries(Object.entries(call.base).filter(([name]) => !this.imageNames.has(name)));
        try {
          return await runExec({
            docker: this.docker,
            container,
            command: call.command,
            shell,
            env: { ...base, ...call.env, [RUN_TAG_VARIABLE]: call.tag },
            workingDir: call.workingDir,
            user: this.user,
            timeoutMs: call.timeoutMs,
            maxOutputBytes: call.maxOutputBytes,
            onOutput: call.onOutput,
            signal: call.signal,
            keepBackground: call.keepBackground,
            sweep: () => this.sweep(container, call.tag),
            killContainer: () => this.kill(container),
          });
        } catch (error) {
          if (error === call.signal.reason) throw error;
          // The container stopped (409) or vanished (404) behind our back: bring it back once, then give up.
          if (attempt === 1 && this.forget(container, error)) continue;
          throw engineError(error, 'run the command', this.image);
        }
      }
    } finally {
      this.active--;
    }
  }

  /** Removes the container (after the calls were cancelled). Idempotent. */
  async remove(): Promise<void> {
    await this.starting?.catch(() => undefined);
    const container = this.container;
    this.container = undefined;
    this.running = false;
    if (container) await container.remove({ force: true }).catch((error: unknown) => this.ignoreGone(error, 'remove the container'));
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
        this.container = await this.docker.createContainer(await this.spec());
        const info = await this.container.inspect();
        this.imageNames = new Set((info.Config.Env ?? []).map((entry) => entry.split('=', 1)[0]!));
      }
      await this.container.start().catch((error: unknown) => this.ignoreGone(error, 'start the container'));
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
    await container.kill({ signal: 'SIGKILL' }).catch((error: unknown) => this.ignoreGone(error, 'kill the container'));
    await container.wait({ condition: 'not-running' }).catch(() => undefined);
  }

  private ignoreGone(error: unknown, doing: string): void {
    if (!isGone(error)) throw engineError(error, doing, this.image);
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
