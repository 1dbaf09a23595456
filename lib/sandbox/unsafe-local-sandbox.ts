import { randomUUID } from 'node:crypto';
import { hostBaseEnvironment, type BaseEnvironment } from './base-environment';
import { checkCall } from './call-options';
import { readInheritedEnvironment } from './environment';
import { quoted, SandboxError } from './errors';
import { findHostBash, POSIX_SHELL, usableHostBash, withRealPath, type HostBash } from './host-shell';
import { Lifecycle } from './lifecycle';
import type { SandboxPolicy } from './policy';
import { killTree, runProcessTree } from './process-tree';
import type { Sandbox, SandboxCapabilities, SandboxExecuteOptions, SandboxResult, SandboxShell } from './sandbox';
import { resolveWorkingDirectory } from './working-directory';

/** Options of {@link UnsafeLocalSandbox}. */
export interface UnsafeLocalSandboxOptions {
  /** Host variables forwarded by name (beside the base environment); a missing one fails the constructor. */
  inheritEnvironment?: readonly string[];
  /**
   * The bash that runs `shell: 'bash'` calls. Default `bash`, looked up once, when the sandbox is built, on the host
   * process's `PATH` (absolute entries only); a path is resolved against the host's current directory.
   */
  bashPath?: string;
}

/**
 * Runs commands directly on the host, for trusted commands only: `/bin/sh -c` (`shell: 'posix'`, the default) or
 * the host's bash, found once on the host's own `PATH` (`shell: 'bash'`; `SHELL_UNAVAILABLE` when there is none).
 *
 * Enforced: the working-directory check, the timeout, the output cap, cancellation, refusal after close, and the
 * end of every process a command started when it ends (normally, by timeout or by cancellation). The sweep kills the
 * command's process group and every process whose environment carries the call's unique
 * `AGENTTOOLKIT_SANDBOX_RUN` value (found on Linux through `/proc`), which catches `setsid`, `nohup` and double
 * forks.
 *
 * The environment is rebuilt, never inherited: the host's `PATH`, `HOME` and `LANG` (else `C.UTF-8`) as they were
 * when the sandbox was built, `TERM=dumb`, then the policy's `environment`, the `inheritEnvironment` variables and the
 * call's `env`. No other host variable (an API key, a token) reaches the command.
 *
 * NOT enforced, by design: readable/writable paths, network access, memory, pids and CPU limits, and `readOnly`
 * (refused with `READ_ONLY_UNSUPPORTED`). The command can read, write and reach anything the Node process can,
 * including the host's files that hold secrets. A command that clears or changes its own environment
 * (`setsid env -i ...`), work handed to a daemon that already runs, and a process that leaves the process group and
 * forks and exits faster than the sweep reads `/proc` escape the sweep. Use `BubblewrapSandbox` or `DockerSandbox`
 * for anything a model wrote.
 */
export class UnsafeLocalSandbox implements Sandbox {
  private readonly lifecycle = new Lifecycle('UnsafeLocalSandbox');
  /** Tags of the calls whose background processes were kept; `close()` sweeps them. */
  private readonly kept = new Set<string>();
  readonly #inherited: Readonly<Record<string, string>>;
  private readonly base: BaseEnvironment;
  private readonly bash: HostBash;

  /**
   * @param policy - cwd, environment, timeout and output cap are used; the rest is ignored (see the class doc).
   * @param options - see {@link UnsafeLocalSandboxOptions}.
   * @throws SandboxError `ENVIRONMENT_MISSING` for an inherited variable that is not set; `OPTIONS_INVALID` for a
   *   malformed variable name or an empty `bashPath`.
   */
  constructor(
    readonly policy: SandboxPolicy,
    options: UnsafeLocalSandboxOptions = {},
  ) {
    this.#inherited = readInheritedEnvironment(options.inheritEnvironment ?? []);
    this.base = hostBaseEnvironment();
    this.bash = findHostBash(options.bashPath, 'UnsafeLocalSandbox');
  }

  /**
   * See {@link Sandbox.execute}. `oomKilled` is never set.
   *
   * @throws SandboxError `READ_ONLY_UNSUPPORTED` for `readOnly: true`; `SHELL_UNAVAILABLE` for `shell: 'bash'` when
   *   the host has no bash (or it lies inside a writable path).
   */
  async execute(command: string, options: SandboxExecuteOptions = {}): Promise<SandboxResult> {
    return this.lifecycle.run(options.signal, async (signal) => {
      const call = checkCall(this.policy, command, options, this.#inherited);
      if (call.readOnly) {
        throw new SandboxError('READ_ONLY_UNSUPPORTED', 'UnsafeLocalSandbox cannot run a command read-only: it runs on the host with your process\'s rights. Run it without readOnly, or use BubblewrapSandbox or DockerSandbox, which enforce it.');
      }
      const shell = this.shellPath(call.shell);
      const cwd = await resolveWorkingDirectory(this.policy, options.cwd);
      const tag = randomUUID();
      if (call.keepBackground) this.kept.add(tag);
      return runProcessTree({
        file: shell,
        args: ['-c', command],
        env: { ...this.base, ...call.env },
        cwd,
        timeoutMs: call.timeoutMs,
        maxOutputBytes: call.maxOutputBytes,
        onOutput: call.onOutput,
        signal,
        tag,
        keepBackground: call.keepBackground,
        spawnError: (cause) => new SandboxError('ENGINE_UNAVAILABLE', `Could not start ${shell}: ${quoted(cause.message, 300)}`, { cause }),
      });
    });
  }

  /** `posix` always, `bash` when the host has one outside the writable paths; `readOnly` never. */
  async capabilities(): Promise<SandboxCapabilities> {
    return Promise.resolve(Object.freeze({ shells: Object.freeze(this.hasBash() ? (['posix', 'bash'] as const) : (['posix'] as const)), readOnly: false }));
  }

  /** Kills running commands and the background processes kept by `keepBackground`, and refuses new ones. Idempotent. */
  async close(): Promise<void> {
    await this.lifecycle.close();
    const tags = [...this.kept];
    this.kept.clear();
    await Promise.all(tags.map((tag) => killTree(undefined, tag)));
  }

  /** Same as {@link UnsafeLocalSandbox.close}, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private hasBash(): boolean {
    try {
      this.shellPath('bash');
      return true;
    } catch {
      return false;
    }
  }

  private shellPath(shell: SandboxShell): string {
    if (shell === 'posix') return POSIX_SHELL;
    return usableHostBash(this.bash, this.policy.writablePaths.flatMap(withRealPath), 'UnsafeLocalSandbox');
  }
}

