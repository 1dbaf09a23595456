import { randomUUID } from 'node:crypto';
import { checkCall } from './call-options';
import { quoted, SandboxError } from './errors';
import { Lifecycle } from './lifecycle';
import type { SandboxPolicy } from './policy';
import { killTree, runProcessTree } from './process-tree';
import type { Sandbox, SandboxExecuteOptions, SandboxResult } from './sandbox';
import { resolveWorkingDirectory } from './working-directory';

/** The shell every command runs in: a fixed absolute path, never looked up on a `PATH`. */
const SHELL = '/bin/sh';

/**
 * Runs commands directly on the host with `/bin/sh -c`, for trusted commands only.
 *
 * Enforced: the working-directory check, the timeout, the output cap, cancellation, refusal after close, and the
 * end of every process a command started when it ends (normally, by timeout or by cancellation). The sweep kills the
 * command's process group and every process whose environment carries the call's unique
 * `AGENTTOOLKIT_SANDBOX_RUN` value (found on Linux through `/proc`), which catches `setsid`, `nohup` and double
 * forks.
 *
 * NOT enforced, by design: readable/writable paths, network access, memory, pids and CPU limits. The command sees
 * the host's whole environment plus the policy's and the call's variables, and can read, write and reach anything
 * the Node process can. A command that clears or changes its own environment (`setsid env -i ...`), work handed to
 * a daemon that already runs, and a process that leaves the process group and forks and exits faster than the sweep
 * reads `/proc` escape it. Use
 * `BubblewrapSandbox` or `DockerSandbox` for anything a model wrote.
 */
export class UnsafeLocalSandbox implements Sandbox {
  private readonly lifecycle = new Lifecycle('UnsafeLocalSandbox');
  /** Tags of the calls whose background processes were kept; `close()` sweeps them. */
  private readonly kept = new Set<string>();

  /** @param policy - cwd, environment, timeout and output cap are used; the rest is ignored (see the class doc). */
  constructor(readonly policy: SandboxPolicy) {}

  /** See {@link Sandbox.execute}. `oomKilled` is never set. */
  async execute(command: string, options: SandboxExecuteOptions = {}): Promise<SandboxResult> {
    return this.lifecycle.run(options.signal, async (signal) => {
      const call = checkCall(this.policy, command, options);
      const cwd = await resolveWorkingDirectory(this.policy, options.cwd);
      const tag = randomUUID();
      if (call.keepBackground) this.kept.add(tag);
      return runProcessTree({
        file: SHELL,
        args: ['-c', command],
        env: { ...stringEnv(process.env), ...call.env },
        cwd,
        timeoutMs: call.timeoutMs,
        maxOutputBytes: call.maxOutputBytes,
        onOutput: call.onOutput,
        signal,
        tag,
        keepBackground: call.keepBackground,
        spawnError: (cause) => new SandboxError('ENGINE_UNAVAILABLE', `Could not start ${SHELL}: ${quoted(cause.message, 300)}`, { cause }),
      });
    });
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
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
